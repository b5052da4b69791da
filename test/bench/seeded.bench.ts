/**
 * @module seeded.bench
 * `npm run bench seeded`: the seeded example in the browser. A room shows the CT head phantom
 * with a `grow_regions` layer bound to its points labelled `seed`; two pages follow the room in
 * Debian's Chromium (SwiftShader). On the first page the annotation tools place two seeds on the
 * phantom's slices; the layer is computed again on the host, and the second page draws the new
 * regions. Measured per round: from the second click to the follower's first frame after its
 * new regions arrived (the room's 200 ms gathering of changes included), beside the plugin's own
 * compute time for the same seeds (a `/invoke` of `grow_regions` in a room of its own).
 */
import type { Page } from 'playwright-core';
import type { AnnotationList, RoomScene } from '../../core/wire/scene-types.ts';
import { launchBrowser } from '../browser/browser-session.ts';
import { viewerQuery } from '../helpers/room.ts';
import { spawnHost } from '../helpers/spawn-host.ts';
import { waitFor } from '../helpers/wait-for.ts';
import { fmt } from './host-helpers.ts';

const ROUNDS = Number(process.env.SEEDED_ROUNDS ?? 3);
const WAIT_MS = 300_000;

async function api<T>(base: string, method: string, path: string, body?: unknown): Promise<T> {
  const headers: Record<string, string> = body === undefined ? {} : { 'content-type': 'application/json' };
  const response = await fetch(`${base}${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${await response.text()}`);
  return (response.status === 204 ? null : await response.json()) as T;
}

/** Waits until the page's own subject is drawn and its camera is still (clicks land where they aim). */
async function settled(page: Page): Promise<void> {
  await page.waitForFunction(
    () => {
      const canvas = document.querySelector<HTMLElement>('canvas.stage-canvas');
      return canvas?.dataset.camera === 'still' && canvas.dataset.drawn === canvas.dataset.shows && Number(canvas.dataset.shows) > 0;
    },
    undefined,
    { timeout: WAIT_MS },
  );
}

async function clickStage(page: Page, x: number, y: number): Promise<void> {
  const box = (await page.locator('canvas.stage-canvas').boundingBox())!;
  await page.mouse.click(box.x + box.width * x, box.y + box.height * y);
}

export async function run(): Promise<{ name: string; lines: string[] }> {
  const lines: string[] = [];
  // The examples host (the built example plugins and specimens).
  const host = await spawnHost(['--port', '0', '--log-level', 'warn']);
  const browser = await launchBrowser();
  try {
    const seconds: number[] = [];
    const computes: number[] = [];
    const onHost: number[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      const room = `bench-seeded-${round}-${Date.now()}`;
      await api(host.url, 'PUT', `/api/rooms/${room}/scene`, {
        layers: [
          { id: 'scan', source: { specimen: 'ct-head-phantom' } },
          { id: 'regions', source: { function: 'grow_regions', bind: { seeds: { label: 'seed' } } }, kind: 'labels', opacity: 0.5 },
        ],
      });
      const scene = () => api<RoomScene>(host.url, 'GET', `/api/rooms/${room}/scene`);
      const regionsResult = async () => (await scene()).layers.find((layer) => layer.id === 'regions')?.result?.result_id;
      await waitFor(async () => (await regionsResult()) ?? undefined, 'the regions of the default seed', WAIT_MS);
      const url = `${host.url}/${viewerQuery({ specimen: 'ct-head-phantom', room, follow: true })}`;
      const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
      const [leader, follower] = await Promise.all([context.newPage(), context.newPage()]);
      await Promise.all([leader.goto(url), follower.goto(url)]);
      await Promise.all([settled(leader), settled(follower)]);
      await leader.click('[data-testid=annotations] [data-tool=point]');
      await leader.fill('[data-testid=mark-new-label]', 'seed');

      // The first seed, and its regions on the follower.
      const before = await regionsResult();
      await clickStage(leader, 0.5, 0.5);
      await waitFor(async () => ((await regionsResult()) !== before ? true : undefined), 'the regions of the first seed', WAIT_MS);
      await settled(follower);

      // The second seed: the clock runs from the click to the follower's first frame after it
      // received the regions of both seeds, by their blob URL or the layer's data URL (a coarse
      // level first where it refines).
      const first = await regionsResult();
      const finished: { path: string; at: number }[] = [];
      follower.on('requestfinished', (request) => finished.push({ path: new URL(request.url()).pathname, at: Date.now() }));
      // Each frame the follower draws from now on, by the time it was drawn.
      await follower.evaluate(() => {
        const canvas = document.querySelector<HTMLElement>('canvas.stage-canvas')!;
        const drawn: number[] = [];
        (window as unknown as { drawnAt: number[] }).drawnAt = drawn;
        new MutationObserver(() => drawn.push(Date.now())).observe(canvas, { attributes: true, attributeFilter: ['data-frames'] });
      });
      const clicked = Date.now();
      await clickStage(leader, 0.56, 0.5);
      const after = await waitFor(async () => {
        const id = await regionsResult();
        return id !== first ? id : undefined;
      }, 'the regions of both seeds', WAIT_MS, 5);
      const computedAt = Date.now();
      const dataPath = `/api/rooms/${room}/layers/regions/data`;
      const downloaded = await waitFor(
        async () => finished.find((f) => f.at >= computedAt - 50 && (f.path === dataPath || f.path === `/api/blobs/${after}`))?.at,
        "the follower's download of the new regions",
        WAIT_MS,
        5,
      );
      const frameAt = await waitFor(
        async () => (await follower.evaluate(() => (window as unknown as { drawnAt: number[] }).drawnAt)).find((at) => at >= downloaded),
        "the follower's frame of the new regions",
        WAIT_MS,
        5,
      );
      seconds.push(frameAt - clicked);
      onHost.push(computedAt - clicked);

      // The plugin's own time for these seeds, computed afresh in a room of its own.
      const seeds = (await api<AnnotationList>(host.url, 'GET', `/api/rooms/${room}/annotations`)).annotations.map((mark) => mark.points[0]);
      const started = performance.now();
      await api(host.url, 'POST', '/api/processing/invoke', { function_name: 'grow_regions', kwargs: { seeds }, room_id: `${room}-alone` });
      computes.push(performance.now() - started);
      await context.close();
    }
    const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
    lines.push(
      `second seed placed on a following page → the other follower's first frame of the new regions: ` +
        `median ${fmt(median(seconds), 0)} ms (rounds: ${seconds.map((s) => fmt(s, 0)).join(', ')}); ` +
        `of which until the host's scene named the new regions: median ${fmt(median(onHost), 0)} ms`,
    );
    lines.push(
      `grow_regions' own time for the same two seeds (a /invoke, computed afresh): ` +
        `median ${fmt(median(computes), 0)} ms (rounds: ${computes.map((s) => fmt(s, 0)).join(', ')}); ` +
        `the rest is the room's 200 ms gathering of changes, events, the download and the drawing`,
    );
  } finally {
    await browser.close();
    host.child.kill('SIGTERM');
  }
  return { name: 'the seeded example in the browser', lines };
}
