/**
 * @module scenes-viewer.bench
 * `npm run bench scenes-viewer`: scenes in the viewer: a following page's first frame of a 4-layer scene (a 256³ uint16 scan
 * as the active layer, its 256³ uint16 labels, a 500,000-triangle mesh and 100,000 points)
 * against its first frame of the largest layer alone (the scan, 32 MiB), in Debian's Chromium
 * with SwiftShader (software WebGL: a floor, not a workstation figure). Every layer's result
 * is computed before the clock starts, so the figures are the viewer's: the room's events,
 * each layer's coarse delivery, its download, decoding and drawing. "First frame" is the first
 * stage frame that draws every layer (coarse first where a layer refines); "full detail" is when
 * every layer has its whole result drawn. Each run opens a fresh browser context (an empty HTTP
 * cache); the two rooms alternate, so a loaded machine weighs on both alike.
 */
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import type { RoomScene } from '../../core/wire/scene-types.ts';
import { launchBrowser } from '../browser/browser-session.ts';
import { builtFixture } from '../helpers/built-fixture.ts';
import { viewerQuery } from '../helpers/room.ts';
import { spawnHost } from '../helpers/spawn-host.ts';
import { waitFor } from '../helpers/wait-for.ts';
import { fmt, percentile } from './host-helpers.ts';

const RUNS = Number(process.env.SCENES_RUNS ?? 3);
const SIZE = 256;

const SCAN = { id: 'scan', source: { specimen: 'plant-scan', params: { size: SIZE, dtype: 'uint16' } } };
export const FOUR = [
  SCAN,
  { id: 'labels', source: { specimen: 'plant-labels', params: { size: SIZE, dtype: 'uint16' } }, kind: 'labels', opacity: 0.4 },
  { id: 'mesh', source: { specimen: 'plant-cell', params: { size: SIZE, segment: 2, rings: 500 } } },
  { id: 'points', source: { specimen: 'plant-points', params: { size: SIZE, count: 100_000 } } },
];

export interface Timing {
  first: number;
  full: number;
}

/** Opens a following page on `room` in a fresh context; ms from the request to the first frame of every layer, and to full detail. */
export async function open(browser: Browser, url: string, ids: string[]): Promise<Timing> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  try {
    const page = await context.newPage();
    const started = Date.now();
    await page.goto(url);
    const want = [...ids].sort().join(' ');
    const first = await page.waitForFunction(
      (w) => ((document.querySelector<HTMLElement>('canvas.stage-canvas')?.dataset.layersDrawn ?? '').split(' ').sort().join(' ') === w ? Date.now() : null),
      want,
      { timeout: 600_000, polling: 'raf' },
    );
    const firstAt = (await first.jsonValue()) as number;
    // Full detail: no layer row is loading or refining, the page's own result is in and its coarse note gone.
    const full = await page.waitForFunction(
      () => {
        const rows = [...document.querySelectorAll<HTMLElement>('[data-testid=layer-row]')];
        const settled = rows.every((row) => row.dataset.status === '' || row.dataset.status === undefined);
        const own = ['done', 'cached'].includes(document.querySelector<HTMLElement>('[data-testid=job-state]')?.dataset.state ?? '');
        return settled && own && document.querySelector<HTMLElement>('[data-testid=refine-note]')?.hidden ? Date.now() : null;
      },
      null,
      { timeout: 600_000, polling: 'raf' },
    );
    return { first: firstAt - started, full: ((await full.jsonValue()) as number) - started };
  } finally {
    await context.close();
  }
}

/** Sets the scene of `room` (the scan active) and resolves once every layer has its result. */
export async function putScene(url: string, room: string, layers: typeof FOUR): Promise<void> {
  const response = await fetch(`${url}/api/rooms/${room}/scene`, {
    method: 'PUT', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ layers, active: 'scan' }),
  });
  if (!response.ok) throw new Error(`PUT scene of ${room}: ${response.status} ${await response.text()}`);
  await waitFor(async () => {
    const scene = (await (await fetch(`${url}/api/rooms/${room}/scene`)).json()) as RoomScene;
    return scene.layers.every((layer) => layer.result) || undefined;
  }, `every layer of ${room} computed`);
}

export async function run(): Promise<{ name: string; lines: string[] }> {
  const [plugins, specimens] = await Promise.all([builtFixture('scene-plugins'), mkdtemp(join(tmpdir(), 'vitrine-scenes-bench-'))]);
  const [host, browser] = await Promise.all([
    spawnHost(['--port', '0', '--plugins', plugins, '--specimens', specimens, '--log-level', 'warn']),
    launchBrowser(),
  ]);
  try {
    await putScene(host.url, 'bench-one', [SCAN]);
    await putScene(host.url, 'bench-four', FOUR);
    const one: Timing[] = [];
    const four: Timing[] = [];
    // A first pass of each makes the host's coarse deliveries, as a room's first viewer would; not counted.
    await open(browser, `${host.url}/${viewerQuery({ room: 'bench-one', follow: true })}`, ['scan']);
    await open(browser, `${host.url}/${viewerQuery({ room: 'bench-four', follow: true })}`, FOUR.map((layer) => layer.id));
    for (let i = 0; i < RUNS; i++) {
      one.push(await open(browser, `${host.url}/${viewerQuery({ room: 'bench-one', follow: true })}`, ['scan']));
      four.push(await open(browser, `${host.url}/${viewerQuery({ room: 'bench-four', follow: true })}`, FOUR.map((layer) => layer.id)));
    }
    const median = (values: Timing[], key: keyof Timing): number => percentile(values.map((t) => t[key]), 50);
    const stat = (values: Timing[], key: keyof Timing) => {
      const [min, max] = [Math.min(...values.map((t) => t[key])), Math.max(...values.map((t) => t[key]))];
      return `median ${fmt(median(values, key) / 1000)} s (min ${fmt(min / 1000)}, max ${fmt(max / 1000)})`;
    };
    return {
      name: 'Scenes in the viewer: a 4-layer scene against its largest layer alone (Chromium + SwiftShader)',
      lines: [
        `the scan alone (256³ uint16): first frame ${stat(one, 'first')}, full detail ${stat(one, 'full')}`,
        `4 layers (+ labels 256³ uint16, 500k-triangle mesh, 100k points): first frame ${stat(four, 'first')}, full detail ${stat(four, 'full')}`,
        `ratio 4 layers / scan alone: first frame ${fmt(median(four, 'first') / median(one, 'first'))}× (goal ≤ 1.5×), ` +
          `full detail ${fmt(median(four, 'full') / median(one, 'full'))}× over ${RUNS} runs each`,
      ],
    };
  } finally {
    await browser.close();
    await host.stop('SIGTERM');
  }
}
