/**
 * A stock Neuroglancer draws a labels layer's surfaces from the room's state alone, with no
 * precompute step: the state gives the labels layer the host's multi-resolution meshes beside
 * its volume, and Neuroglancer reads `info`, the manifests and the Draco fragments as they are.
 * Each of three segments (balls at three places of an anisotropic volume) is drawn in the 3-D
 * view (counted in pixels against the same view with no segment shown), each at a place of its
 * own. (Where each vertex lies relative to its voxels is checked on the format itself, by
 * test/meshes/multilod-format.test.ts.)
 */
import type { Browser, Page } from 'playwright-core';
import { PNG } from 'pngjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RoomScene } from '../../core/wire/scene-types.ts';
import { spawnFixtureHost } from '../helpers/fixture-host.ts';
import { serveNeuroglancer, type NeuroglancerPage } from '../helpers/neuroglancer-bundle.ts';
import { room as freshRoom } from '../helpers/room.ts';
import type { RunningHost } from '../helpers/spawn-host.ts';
import { STATE_WAIT_MS, waitFor } from '../helpers/wait-for.ts';
import { shot } from './browser-session.ts';
import { fileBrowser } from './fork-browser.ts';
import { npyBytes } from '../fixtures/specimens/npy-writer.ts';

const N = 32;
const RADIUS = 5;
/** Each segment's ball centre, voxel (x, y, z). */
const BALLS: Record<number, [number, number, number]> = { 1: [8, 8, 16], 2: [23, 10, 10], 3: [14, 23, 22] };
/** C order (z, y, x), as published. */
const SPACING = [0.5, 0.5, 2];
const ORIGIN = [1, 2, 3];

function ballsNpy(): Buffer {
  const data = new Uint8Array(N ** 3);
  for (let z = 0; z < N; z++)
    for (let y = 0; y < N; y++)
      for (let x = 0; x < N; x++)
        for (const [id, [cx, cy, cz]] of Object.entries(BALLS)) if (Math.hypot(x - cx, y - cy, z - cz) <= RADIUS) data[(z * N + y) * N + x] = Number(id);
  return npyBytes({ descr: '|u1', shape: [N, N, N], data });
}

let host: RunningHost;
let browser: Browser;
let neuroglancer: NeuroglancerPage;

beforeAll(async () => {
  neuroglancer = await serveNeuroglancer();
  [host, browser] = await Promise.all([
    spawnFixtureHost(['--pool-size', '1', '--no-viewer', '--cors-origin', new URL(neuroglancer.url).origin]),
    fileBrowser(),
  ]);
});

afterAll(async () => {
  await browser?.close();
  await host?.stop();
  await neuroglancer?.close();
});

type State = { layers: { name: string; segments?: string[] }[] } & Record<string, unknown>;

/** Neuroglancer opened on `state` (in the URL's fragment), once it says every layer is drawn and its meshes are in. */
async function opened(page: Page, state: State): Promise<PNG> {
  await page.goto(`${neuroglancer.url}#!${encodeURIComponent(JSON.stringify(state))}`);
  await page.waitForFunction(
    () => {
      const viewer = (window as unknown as { viewer?: { layerManager: { managedLayers: unknown[] }; isReady(): boolean } }).viewer;
      return viewer !== undefined && viewer.layerManager.managedLayers.length === 1 && viewer.isReady();
    },
    null,
    { timeout: STATE_WAIT_MS, polling: 100 },
  );
  await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
  return PNG.sync.read(await page.screenshot());
}

/** The 3-D view's box on the page. */
function perspectiveBox(page: Page): Promise<{ x: number; y: number; width: number; height: number }> {
  return page.evaluate(() => {
    const viewer = (window as unknown as { viewer: { display: { panels: Set<{ element: HTMLElement; constructor: { name: string } }> } } }).viewer;
    const panel = [...viewer.display.panels].find((p) => p.constructor.name === 'PerspectivePanel')!;
    const box = panel.element.getBoundingClientRect();
    return { x: box.x, y: box.y, width: box.width, height: box.height };
  });
}

/** The pixels of `box` that differ between two screenshots, and the one of them nearest their centre. */
function changed(a: PNG, b: PNG, box: { x: number; y: number; width: number; height: number }): { count: number; at: [number, number] } {
  const moved: [number, number][] = [];
  for (let y = Math.ceil(box.y); y < Math.floor(box.y + box.height); y++)
    for (let x = Math.ceil(box.x); x < Math.floor(box.x + box.width); x++) {
      const i = (y * a.width + x) * 4;
      if (Math.abs(a.data[i]! - b.data[i]!) + Math.abs(a.data[i + 1]! - b.data[i + 1]!) + Math.abs(a.data[i + 2]! - b.data[i + 2]!) >= 30) moved.push([x, y]);
    }
  const cx = moved.reduce((s, p) => s + p[0], 0) / Math.max(1, moved.length);
  const cy = moved.reduce((s, p) => s + p[1], 0) / Math.max(1, moved.length);
  const nearest = moved.reduce((best, p) => (Math.hypot(p[0] - cx, p[1] - cy) < Math.hypot(best[0] - cx, best[1] - cy) ? p : best), moved[0] ?? [cx, cy]);
  return { count: moved.length, at: nearest };
}

describe('a stock Neuroglancer and levels of detail', () => {
  it("draws three segments' surfaces from the room's state, each in a place of its own", async () => {
    const room = freshRoom('ng-meshes');
    const put = await fetch(`${host.url}/api/specimens/balls?filename=balls.npy&role=labels&spacing=${SPACING.join(',')}&origin=${ORIGIN.join(',')}`, {
      method: 'PUT',
      headers: { 'content-type': 'application/octet-stream' },
      body: new Uint8Array(ballsNpy()),
    });
    expect(put.status).toBe(201);
    const scene = await fetch(`${host.url}/api/rooms/${room}/scene`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ layers: [{ id: 'balls', source: { specimen: 'balls' }, kind: 'labels' }] }),
    });
    expect(scene.status).toBe(200);
    const computed = async () => (((await (await fetch(`${host.url}/api/rooms/${room}/scene`)).json()) as RoomScene).layers[0]?.result ? true : undefined);
    await waitFor(computed, 'the labels layer to be computed');
    const state = (await (await fetch(`${host.url}/api/rooms/${room}/neuroglancer`)).json()) as State;
    expect(state.layers[0]!.segments).toEqual(['1', '2', '3']);
    // The 3-D view alone, without the cross-sections drawn in it: what changes is the surfaces.
    const only = (segments: string[]): State => ({ ...state, layout: '3d', showSlices: false, layers: [{ ...state.layers[0]!, segments }] });
    const context = await browser.newContext({ viewport: { width: 640, height: 480 } });
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    page.on('console', (message) => console.log(`page: ${message.text()}`));
    page.on('response', (answer) => {
      if (answer.status() >= 400) console.log(`page got ${answer.status()} for ${answer.url()}`);
    });
    page.on('requestfailed', (failed) => console.log(`page request failed: ${failed.url()} ${failed.failure()?.errorText ?? ''}`));
    const none = await opened(page, only([]));
    const centres: [number, number][] = [];
    for (const segment of ['1', '2', '3']) {
      const shown = await opened(page, only([segment]));
      const drawn = changed(none, shown, await perspectiveBox(page));
      await shot(page, `neuroglancer-meshes-${segment}`);
      console.log(`segment ${segment}: ${drawn.count} pixels`);
      expect(drawn.count).toBeGreaterThan(200);
      centres.push(drawn.at);
    }
    // Three places on the screen, one per ball (each ball's own pixels, none drawn over another's).
    const apart = (a: [number, number], b: [number, number]) => Math.hypot(a[0] - b[0], a[1] - b[1]);
    for (let a = 0; a < 3; a++) for (let b = a + 1; b < 3; b++) expect(apart(centres[a]!, centres[b]!)).toBeGreaterThan(10);
    await context.close();
    expect(errors).toEqual([]);
  });
});
