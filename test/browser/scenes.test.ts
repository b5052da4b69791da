/**
 * A room's scene in the web viewer and in VR: the plant session (a 256³ uint8 scan, its labels
 * at opacity 0.4 with four named cells, and one cell's surface as a mesh, all in a frame with
 * spacing [2, 1, 1] and an origin) shown by two following pages and a page in VR (IWER's
 * emulated Quest 3). A layer change on one page (opacity, visibility) reaches the other and
 * stays where it was made; the VR panel's layer list switches a layer off for everyone; the
 * labels lie on the scan's slices and the readout names the id under the pointer; a mesh
 * inside the ray-marched scan is hidden where the scan is opaque before it and seen where it
 * is clear, with a bright cell behind it; a snapshot opens as it was, read-only, after the
 * room changed, and restores into the room. Screenshots land in os.tmpdir()/vitrine-browser-shots.
 */
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PNG } from 'pngjs';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RoomScene } from '../../core/wire/scene-types.ts';
import { builtFixture } from '../helpers/built-fixture.ts';
import { room as freshRoom, viewerQuery } from '../helpers/room.ts';
import { spawnHost, type RunningHost } from '../helpers/spawn-host.ts';
import { DRAW_SCALE, installEmulatedHeadset, shot, viewportFor } from './browser-session.ts';
import { fileBrowser } from './fork-browser.ts';
import { framesPass, pullTriggerAt } from './vr-controller.ts';
import { STATE_WAIT_MS, waitFor } from '../helpers/wait-for.ts';

let host: RunningHost;
let browser: Browser;
const contexts: BrowserContext[] = [];
const room = freshRoom('plant');
const SIZE = 256;
const pages: Record<'a' | 'b' | 'vr', { page: Page; errors: string[] }> = {} as never;

async function api(method: string, path: string, body?: unknown): Promise<unknown> {
  const headers: Record<string, string> = body === undefined ? {} : { 'content-type': 'application/json' };
  const response = await fetch(`${host.url}${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${await response.text()}`);
  return response.status === 204 ? null : response.json();
}

const layerPath = (id: string): string => `/api/rooms/${room}/layers/${id}`;

/**
 * Points at (x, y) until the value readout reads `want`: the readout follows the pointer, so a
 * move made while the stage was still drawing the last change is made again, and a layer whose
 * coarse answer is still shown (its voxels on the coarse grid) is read again once its full one is.
 */
async function readoutAt(page: Page, x: number, y: number, want: RegExp, before?: () => Promise<void>): Promise<void> {
  let nudge = 0;
  await waitFor(async () => {
    await before?.();
    await page.mouse.move(x + (nudge++ % 2), y);
    return want.test((await page.locator('[data-testid=value-readout]').textContent()) ?? '') ? true : undefined;
  }, `the readout to read ${want}`, STATE_WAIT_MS, 250);
}

/**
 * Opens `query` in page `name`: in its own context the first time; a page of that name still
 * open loads it there instead (a new document, as a new window would load it), which spares
 * Chromium a renderer and a cold start of the viewer.
 */
async function open(name: keyof typeof pages, query: string, headset = false): Promise<Page> {
  let page = pages[name]?.page;
  if (!page || page.isClosed()) {
    const context = await browser.newContext(viewportFor(headset));
    contexts.push(context);
    const opened = await context.newPage();
    if (headset) await installEmulatedHeadset(opened);
    opened.on('pageerror', (e) => pages[name].errors.push(e.message));
    page = opened;
  }
  pages[name] = { page, errors: [] };
  await page.goto(`${host.url}/${query}`);
  return page;
}

/** Waits until the stage draws exactly the layers `ids` (in any order). */
async function drawn(page: Page, ids: string[]): Promise<void> {
  await page.waitForFunction(
    (want) => (document.querySelector<HTMLElement>('canvas.stage-canvas')?.dataset.layersDrawn ?? '').split(' ').sort().join(' ') === want,
    [...ids].sort().join(' '),
    { timeout: 240_000 },
  );
}

const row = (id: string, control: string): string => `[data-testid=layer-row][data-layer=${id}] [data-control=${control}]`;

/** Pixels of the stage whose colour is saturated (the mesh; the scan is drawn in gray). */
async function saturated(page: Page): Promise<number> {
  const png = PNG.sync.read(await page.locator('canvas.stage-canvas').screenshot());
  let count = 0;
  for (let i = 0; i < png.data.length; i += 4) {
    const [r, g, b] = [png.data[i]!, png.data[i + 1]!, png.data[i + 2]!];
    if (Math.max(r, g, b) - Math.min(r, g, b) > 60) count++;
  }
  return count;
}

/** Puts the room's camera `distance` units in front of `target` (+z), looking at it, and waits until `page` has it. */
async function lookAt(page: Page, target: number[], distance: number): Promise<void> {
  const camera = { position: [target[0], target[1], target[2]! + distance], target, up: [0, 1, 0] };
  await api('PUT', `/api/rooms/${room}/view`, { camera });
  await page.waitForFunction((want) => {
    const shown = JSON.parse(document.querySelector<HTMLElement>('canvas.stage-canvas')?.dataset.roomCamera ?? 'null') as { target: number[] } | null;
    return shown !== null && shown.target.every((v, i) => Math.abs(v - want[i]!) < 1e-3);
  }, target);
}

beforeAll(async () => {
  const [plugins, specimens] = await Promise.all([builtFixture('scene-plugins'), mkdtemp(join(tmpdir(), 'vitrine-scene-specimens-'))]);
  [host, browser] = await Promise.all([
    spawnHost(['--host', '127.0.0.1', '--port', '0', '--plugins', plugins, '--specimens', specimens]),
    fileBrowser(DRAW_SCALE),
  ]);
  await api('PUT', `/api/rooms/${room}/scene`, {
    layers: [
      { id: 'scan', source: { specimen: 'plant-scan', params: { size: SIZE } } },
      { id: 'labels', source: { specimen: 'plant-labels', params: { size: SIZE } }, kind: 'labels', opacity: 0.4 },
      { id: 'cell', source: { specimen: 'plant-cell', params: { size: SIZE, segment: 2 } } },
    ],
    active: 'scan',
  });
}, 180_000);

afterAll(async () => {
  await Promise.all(contexts.map((c) => c.close()));
  await browser?.close();
  await host?.stop();
});

describe('the plant session as a scene', { timeout: 600_000 }, () => {
  it('two following pages draw the scan, its labels and the cell; a layer change on one reaches the other', async () => {
    const [a, b] = await Promise.all([open('a', viewerQuery({ room, follow: true })), open('b', viewerQuery({ room, follow: true }))]);
    await Promise.all([drawn(a, ['scan', 'labels', 'cell']), drawn(b, ['scan', 'labels', 'cell'])]);
    // The entry is the active layer: the page's own panel shows the scan.
    expect(await a.locator('[data-testid=specimen-title]').textContent()).toBe('Plant scan');
    expect(await b.locator(`${row('labels', 'opacity')}`).inputValue()).toBe('0.4');
    await shot(a, 'scenes-plant-a');
    await shot(b, 'scenes-plant-b');

    await a.locator(row('labels', 'opacity')).fill('0.8');
    await b.waitForFunction((sel) => document.querySelector<HTMLInputElement>(sel)?.value === '0.8', row('labels', 'opacity'), { timeout: STATE_WAIT_MS });
    await a.locator(row('cell', 'visible')).uncheck();
    await drawn(b, ['scan', 'labels']);
    expect(await b.locator(row('cell', 'visible')).isChecked()).toBe(false);
    const scene = (await api('GET', `/api/rooms/${room}/scene`)) as RoomScene;
    expect(scene.layers.map((layer) => [layer.id, layer.opacity, layer.visible])).toEqual([['scan', 1, true], ['labels', 0.8, true], ['cell', 1, false]]);
    // The page that made the changes keeps them: its own echo does not pull it back.
    expect(await a.locator(row('labels', 'opacity')).inputValue()).toBe('0.8');
    await drawn(a, ['scan', 'labels']);
    await b.locator(row('cell', 'visible')).check();
    await a.locator(row('labels', 'opacity')).fill('0.4');
    await Promise.all([
      drawn(a, ['scan', 'labels', 'cell']),
      b.waitForFunction((sel) => document.querySelector<HTMLInputElement>(sel)?.value === '0.4', row('labels', 'opacity')),
    ]);
    // The second page's checks are done: left in the room, it would draw each change the next
    // tests make to it (the scan ray-marched, in software), read by nothing. It leaves for a
    // blank page until the snapshot's test opens the snapshot in it.
    expect(pages.b.errors).toEqual([]);
    await b.goto('about:blank');
  });

  it('draws the labels on the scan\'s slices and names the id under the pointer', async () => {
    const a = pages.a.page;
    // Seen from +z, straight at cell 4 ('bud', centred at 0.22, 0.75, 0.5 of the edge), the z slice through its middle.
    await lookAt(a, [0.22 * SIZE, 0.75 * SIZE, 10 + SIZE], 400);
    // The z slice through the cell's middle; set again should the page's own result arrive late
    // (on a loaded machine its computation may still run) and put the slices where they were.
    const zSlider = a.locator('[data-testid=slice-panel] input[data-axis=z]');
    const middleSlice = async (): Promise<void> => {
      if ((await zSlider.inputValue()) !== String(SIZE / 2)) await zSlider.fill(String(SIZE / 2));
    };
    const canvas = (await a.locator('canvas.stage-canvas').boundingBox())!;
    await readoutAt(a, canvas.x + canvas.width / 2 + 1, canvas.y + canvas.height / 2 + 1, /^plant-labels: label 4 bud at x 5\d, y 19\d, z 128$/, middleSlice);
    await shot(a, 'scenes-labels-over-slices');
    // Beside the cells the labels are clear: the pointer reads the scan.
    await readoutAt(a, canvas.x + canvas.width / 2 - 100, canvas.y + canvas.height / 2, /^plant-scan: \d+ at x \d+, y 19\d, z 128$/, middleSlice);
  });

  it('hides a mesh inside the ray-marched scan where the scan is opaque before it, not where it lies behind', async () => {
    const a = pages.a.page;
    // Only cells 1 and 3 (brightness 220) are past the window; cell 2 (100) around the mesh is clear.
    // Far enough that the box covers a small part of the canvas: software WebGL marches every pixel on the CPU.
    await lookAt(a, [SIZE / 2, SIZE / 2, 10 + 2 * 0.64 * SIZE], 1000);
    await api('PATCH', layerPath('labels'), { visible: false });
    await api('PATCH', layerPath('scan'), { mode: 'volume', window: [150, 250], colormap: 'gray' });
    await a.waitForFunction(() => document.querySelector('[data-testid=slice-panel] .slice-title')?.textContent === 'Volume', null, { timeout: 240_000 });
    await drawn(a, ['scan', 'cell']);
    const withScan = await saturated(a);
    await shot(a, 'scenes-mesh-in-volume');
    await api('PATCH', layerPath('scan'), { visible: false });
    await drawn(a, ['cell']);
    const alone = await saturated(a);
    await shot(a, 'scenes-mesh-alone');
    // Cell 1 behind the mesh does not cover it; cell 3 in front of a part of it does.
    expect(alone).toBeGreaterThan(500);
    expect(withScan).toBeGreaterThan(0.5 * alone);
    expect(withScan).toBeLessThan(0.97 * alone);
    await api('PATCH', layerPath('scan'), { visible: true, mode: 'slices', window: null, colormap: null });
    await api('PATCH', layerPath('labels'), { visible: true });
    await drawn(a, ['scan', 'labels', 'cell']);
  });

  it('a page in VR draws the three layers and its panel switches one off for everyone', async () => {
    const vr = await open('vr', viewerQuery({ room, follow: true }), true);
    await drawn(vr, ['scan', 'labels', 'cell']);
    await vr.getByRole('button', { name: 'Enter VR' }).click();
    await vr.waitForFunction(() => window.vitrineVr?.state().presenting === true && window.vitrineVr.state().firstSpecimenFrameMs !== null, null, {
      timeout: STATE_WAIT_MS,
    });
    await framesPass(vr, 5);
    await drawn(vr, ['scan', 'labels', 'cell']);
    await shot(vr, 'scenes-vr');
    const toggle = await vr.evaluate(() => window.vitrineVr!.layerPoint('labels', 'visible'));
    expect(toggle).not.toBeNull();
    await pullTriggerAt(vr, [0.15, 1.1, -0.1], toggle!);
    await drawn(pages.a.page, ['scan', 'cell']);
    expect(await pages.a.page.locator(row('labels', 'visible')).isChecked()).toBe(false);
    await framesPass(vr, 5);
    await shot(vr, 'scenes-vr-labels-off');
    await pullTriggerAt(vr, [0.15, 1.1, -0.1], (await vr.evaluate(() => window.vitrineVr!.layerPoint('labels', 'visible')))!);
    await drawn(pages.a.page, ['scan', 'labels', 'cell']);
    // "Exit VR" on the panel: out of the session the page goes on following the room as a page
    // does (a session left open would draw every frame of it in software through the next test).
    await pullTriggerAt(vr, [0.15, 1.1, -0.1], (await vr.evaluate(() => window.vitrineVr!.buttonPoint('exit')))!, false);
    await vr.waitForFunction(() => window.vitrineVr?.state().presenting === false);
    // Its checks are done: left open, the page would draw each change of the next test's room.
    await vr.context().close();
  });

  it('opens a snapshot as it was, read-only, after the room changed, and restores it into the room', async () => {
    const a = pages.a.page;
    await a.getByTestId('snapshot').click();
    const link = a.getByTestId('snapshot-link');
    await link.waitFor();
    const href = (await link.getAttribute('href'))!;
    expect(href).toMatch(new RegExp(`^/\\?snapshot=[0-9a-f]{64}&room=${room}$`));
    await api('DELETE', layerPath('cell'));
    await drawn(a, ['scan', 'labels']);
    // The page's room is where "Restore into room" goes: the link names the room it was taken in.
    const b = await open('b', href.slice(1));
    await b.getByTestId('snapshot-banner').waitFor();
    await drawn(b, ['scan', 'labels', 'cell']);
    expect(await b.locator(row('cell', 'opacity')).isDisabled()).toBe(true);
    await shot(b, 'scenes-snapshot');
    await b.getByTestId('restore-snapshot').click();
    await b.waitForURL(/follow=1/);
    await drawn(b, ['scan', 'labels', 'cell']);
    await drawn(a, ['scan', 'labels', 'cell']);
    expect(Object.values(pages).flatMap((p) => p.errors)).toEqual([]);
  });
});
