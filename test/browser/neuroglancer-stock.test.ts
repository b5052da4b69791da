/**
 * A stock Neuroglancer (the npm package, unmodified, bundled by build/tools/neuroglancer/neuroglancer-bundle.ts)
 * on a page of another origin opens a room by the URL of its Neuroglancer state alone
 * (`#!http://host/api/rooms/<room>/neuroglancer`): the room's 32³ volume, read from the host's
 * OME-Zarr v0.5 store (Zarr v3 with sharding: its `zarr.json` documents and shards, nothing of
 * the v0.4 store), is drawn in the cross-sections with its segmentation (a published labels
 * volume in the same frame, read from its v0.5 store too) as a segmentation layer in the page's segment colours, one segment's
 * surface (a mesh layer made from the segmentation, read as OBJ) in the 3-D view in its label's
 * colour, and its point mark, read from the host's precomputed annotations, is drawn in the
 * mark's colour where the point is: Neuroglancer's own pointer readout over the drawn mark names
 * the mark's id, the point's coordinates, the scan's value and the segment there.
 * Screenshots land in os.tmpdir()/vitrine-browser-shots.
 */
import { readFile } from 'node:fs/promises';
import { PNG } from 'pngjs';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Annotation, RoomScene } from '../../core/wire/scene-types.ts';
import { volumeFrameOf, voxelCentre, type Triple } from '../../core/sdk/volume-frame.ts';
import { spawnFixtureHost } from '../helpers/fixture-host.ts';
import { serveNeuroglancer, type NeuroglancerPage } from '../../build/tools/neuroglancer/neuroglancer-bundle.ts';
import { room as freshRoom } from '../helpers/room.ts';
import type { RunningHost } from '../helpers/spawn-host.ts';
import { STATE_WAIT_MS, waitFor } from '../helpers/wait-for.ts';
import { shot } from './browser-session.ts';
import { fileBrowser } from './fork-browser.ts';
import { readyPanels, type PanelBox } from './neuroglancer-ready.ts';
import { npyBytes } from '../fixtures/specimens/npy-writer.ts';

const N = 32;
/** The voxel (x, y, z) whose centre the mark is placed on: in the middle plane, a quarter along x. */
const VOXEL: Triple = [8, N / 2, N / 2];
/** The `ramp` fixture's value at a voxel: its samples count up along x, then y, then z. */
const rampValue = ([x, y, z]: Triple): number => (z * N + y) * N + x;
/** The segmentation's id at a voxel: four quarters of the volume, ids 1 to 4, by x and y. */
const segmentOf = ([x, y]: Triple): number => 1 + (x >= N / 2 ? 1 : 0) + (y >= N / 2 ? 2 : 0);
/** The segment whose surface is a mesh layer: its label's colour is lime (155, 240, 36), unlike the volume's or the mark's. */
const SURFACE_SEGMENT = 2;

/** The segmentation as a uint8 .npy, C order [z, y, x]. */
function segmentationNpy(): Buffer {
  const data = new Uint8Array(N ** 3);
  for (let z = 0; z < N; z++) for (let y = 0; y < N; y++) for (let x = 0; x < N; x++) data[(z * N + y) * N + x] = segmentOf([x, y, z]);
  return npyBytes({ descr: '|u1', shape: [N, N, N], data });
}

let host: RunningHost;
let browser: Browser;
let neuroglancer: NeuroglancerPage;

beforeAll(async () => {
  const started = Date.now();
  neuroglancer = await serveNeuroglancer();
  console.log(`neuroglancer bundle ready in ${Date.now() - started} ms`);
  // The page's origin is the one the host lets read its stores.
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

async function api<T>(method: string, path: string, body?: unknown): Promise<T> {
  const response = await fetch(`${host.url}${path}`, {
    method,
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${await response.text()}`);
  return (await response.json()) as T;
}

/** A pixel of the mark's colour: magenta, or magenta under a panel's translucent dark widget. */
const isMark = (r: number, g: number, b: number): boolean => r > 120 && b > 120 && g < 60 && Math.abs(r - b) < 40;
/** A pixel of the volume through the middle of viridis (teal to green): never the grey background, the yellow box or the mark. */
const isVolume = (r: number, g: number, b: number): boolean => g > r + 40 && b > r && !isMark(r, g, b);

/** In a screenshot, within `box`: how many pixels are the mark's colour (and their centre) and how many the volume's. */
function pixelsIn(png: PNG, box: PanelBox): { mark: number; markAt: [number, number] | null; volume: number } {
  let mark = 0;
  let volume = 0;
  let sx = 0;
  let sy = 0;
  for (let y = Math.ceil(box.y); y < Math.floor(box.y + box.height); y++) {
    for (let x = Math.ceil(box.x); x < Math.floor(box.x + box.width); x++) {
      const at = (y * png.width + x) * 4;
      const [r, g, b] = [png.data[at]!, png.data[at + 1]!, png.data[at + 2]!];
      if (isMark(r, g, b)) {
        mark++;
        sx += x;
        sy += y;
      } else if (isVolume(r, g, b)) volume++;
    }
  }
  return { mark, markAt: mark > 0 ? [sx / mark, sy / mark] : null, volume };
}

/**
 * The mesh layer `surface` in the 3-D view `box` of screenshot `shown`: how many of its pixels
 * change once the layer is hidden, and how many of those were lime (lit: green leads, red
 * behind it, little blue).
 */
async function surfacePixels(page: Page, shown: PNG, box: PanelBox): Promise<{ changed: number; lime: number }> {
  await page.evaluate(() => {
    const layers = (window as unknown as { viewer: { layerManager: { getLayerByName(name: string): { setVisible(on: boolean): void } } } }).viewer.layerManager;
    layers.getLayerByName('surface').setVisible(false);
  });
  await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
  const hidden = PNG.sync.read(await page.screenshot());
  let changed = 0;
  let lime = 0;
  for (let y = Math.ceil(box.y); y < Math.floor(box.y + box.height); y++) {
    for (let x = Math.ceil(box.x); x < Math.floor(box.x + box.width); x++) {
      const at = (y * shown.width + x) * 4;
      const [r, g, b] = [shown.data[at]!, shown.data[at + 1]!, shown.data[at + 2]!];
      const moved = Math.abs(r - hidden.data[at]!) + Math.abs(g - hidden.data[at + 1]!) + Math.abs(b - hidden.data[at + 2]!);
      if (moved < 30) continue;
      changed++;
      if (g > 40 && g > r && r > 2 * b) lime++;
    }
  }
  return { changed, lime };
}

/** What Neuroglancer reads out under the pointer at (x, y), once it names an annotation: its id and the pointer's physical coordinates by axis. */
async function readoutAt(page: Page, [x, y]: [number, number]): Promise<{ id: string; at: Record<string, number> }> {
  await page.mouse.move(x, y);
  const handle = await page.waitForFunction(
    () => {
      interface MouseState { active: boolean; pickedAnnotationId?: string; position: Float32Array; coordinateSpace: { names: string[]; scales: Float64Array } }
      const mouse = (window as unknown as { viewer: { mouseState: MouseState } }).viewer.mouseState;
      if (!mouse.active || mouse.pickedAnnotationId === undefined) return null;
      const { names, scales } = mouse.coordinateSpace;
      return { id: mouse.pickedAnnotationId, at: Object.fromEntries(names.map((name, i) => [name, mouse.position[i]! * scales[i]!])) };
    },
    null,
    { timeout: STATE_WAIT_MS, polling: 50 },
  );
  return (await handle.jsonValue()) as { id: string; at: Record<string, number> };
}

describe('a stock Neuroglancer', () => {
  it('opens a room by its state URL and draws its volume and its point mark', async () => {
    const room = freshRoom('neuroglancer');
    // The segmentation, published in the ramp's frame (spacing and origin in C order).
    const published = await fetch(`${host.url}/api/specimens/quarters?filename=quarters.npy&role=labels&spacing=0.5,0.5,2&origin=1,2,3`, {
      method: 'PUT',
      headers: { 'content-type': 'application/octet-stream' },
      body: new Uint8Array(segmentationNpy()),
    });
    expect(published.status).toBe(201);
    // Viridis over the whole value range: the cross-section through the middle is teal; the
    // segments drawn over it, at a low opacity.
    await api('PUT', `/api/rooms/${room}/scene`, {
      layers: [
        { id: 'scan', source: { function: 'ramp', params: { n: N } }, window: [0, N ** 3], colormap: 'viridis' },
        { id: 'segments', source: { specimen: 'quarters' }, kind: 'labels', opacity: 0.3 },
        { id: 'surface', source: { specimen: 'quarters', segment: SURFACE_SEGMENT } },
      ],
    });
    const computed = async () => ((await api<RoomScene>('GET', `/api/rooms/${room}/scene`)).layers.every((layer) => layer.result) ? true : undefined);
    await waitFor(computed, 'the scan, its segments and the surface to be computed');
    // A point on a voxel centre in the middle plane (where Neuroglancer's first cross-section
    // lies, whether it centres on the volume or on the marks), away from the volume's
    // edges (whose box Neuroglancer also draws). The frame is the ramp's (C order, as returned).
    const frame = volumeFrameOf({ shape: [N, N, N], spacing: [0.5, 0.5, 2], origin: [1, 2, 3] });
    const point = voxelCentre(frame, VOXEL);
    const mark = await api<Annotation>('POST', `/api/rooms/${room}/annotations`, { kind: 'point', points: [point], color: '#ff00ff', label: 'seed' });

    const context = await browser.newContext({ viewport: { width: 960, height: 640 } });
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    // Every path the page asks of the host's result stores, with the method and the byte range it asks for.
    const storeReads: { path: string; method: string; range: string | undefined }[] = [];
    page.on('request', (request) => {
      const { origin, pathname } = new URL(request.url());
      if (origin !== host.url || !pathname.startsWith('/api/results/')) return;
      storeReads.push({ path: pathname, method: request.method(), range: request.headers().range });
    });
    // The state by its URL alone: Neuroglancer fetches it, then the stores it names.
    const stateUrl = `${host.url}/api/rooms/${room}/neuroglancer`;
    const panels = await readyPanels(page, neuroglancer.url, stateUrl, 4, errors);
    const state = await api<{ layers: { type: string; name: string }[] }>('GET', `/api/rooms/${room}/neuroglancer`);
    expect(state.layers.map((layer) => [layer.type, layer.name])).toEqual([
      ['image', 'scan'],
      ['segmentation', 'segments'],
      ['mesh', 'surface'],
      ['annotation', 'annotations (point)'],
    ]);
    // Four panels: three cross-sections through the first position and a 3-D view. Which plane
    // each cross-section shows follows the axis order of whichever source answers first (the
    // marks name x, y, z; the store z, y, x), so every one is looked at.
    expect(panels.map((panel) => panel.kind).sort()).toEqual(['PerspectivePanel', 'SliceViewPanel', 'SliceViewPanel', 'SliceViewPanel']);
    // The volume and the segmentation are read from their v0.5 stores: each store's root and
    // level `zarr.json`, then byte ranges of its shards (`L/c/z/y/x`: a HEAD for the shard's
    // size, then its index at the end, then inner chunks); the v0.4 stores (`<id>.zarr/`) are
    // never asked.
    const scene = await api<RoomScene>('GET', `/api/rooms/${room}/scene`);
    const [scanId, segmentsId] = [0, 1].map((i) => scene.layers[i]!.result!.result_id!);
    console.log(`the page read of the result stores: ${JSON.stringify(storeReads)}`);
    for (const id of [scanId, segmentsId]) {
      const store = `/api/results/${id}.ome.zarr/`;
      const paths = storeReads.filter((read) => read.path.startsWith(store)).map((read) => read.path.slice(store.length));
      expect(paths, `${id}'s v0.5 store`).toContain('zarr.json');
      expect(paths, `${id}'s v0.5 store`).toContain('0/zarr.json');
      const isShard = (path: string) => path.startsWith(store) && /^\d+\/c(\/\d+){3}$/.test(path.slice(store.length));
      const shards = storeReads.filter((read) => isShard(read.path) && read.method !== 'HEAD');
      expect(shards.length, `${id}'s shard reads`).toBeGreaterThan(1);
      for (const shard of shards) expect(shard.range, `${shard.path} read by range`).toMatch(/^bytes=\d+-\d+$/);
      expect(storeReads.filter((read) => read.path.startsWith(`/api/results/${id}.zarr`)), `${id}'s v0.4 store`).toEqual([]);
    }
    const file = await shot(page, 'neuroglancer-stock');
    const png = PNG.sync.read(await readFile(file));
    const sections = panels.filter((panel) => panel.kind === 'SliceViewPanel').map((panel) => pixelsIn(png, panel));
    console.log(`screenshot ${file}: cross-sections ${JSON.stringify(sections)}`);

    // Each cross-section passes through the volume: at Neuroglancer's first zoom its 64 × 16 × 16
    // units span tens of pixels, drawn in the teal to green of viridis's middle (counted here)
    // where the plane crosses the middle values and in its darker and yellower ends elsewhere.
    // Two planes hold its long 64-unit x axis and show a long band; the third crosses it as a
    // small 16 × 16 square (which panel shows which plane varies, so they are sorted).
    for (const section of sections) expect(section.volume).toBeGreaterThan(20);
    const [, second] = sections.map((section) => section.volume).sort((a, b) => b - a);
    expect(second).toBeGreaterThan(200);
    // The mark is drawn on at least two of the planes, whether they pass through it or
    // through the volume's middle (two of those hold the line along x it lies on).
    const marked = sections.filter((section) => section.mark > 4);
    expect(marked.length).toBeGreaterThanOrEqual(2);
    // The segment's surface in the 3-D view: many of its pixels change when the mesh is hidden, and they were its lime.
    const surface = await surfacePixels(page, png, panels.find((panel) => panel.kind === 'PerspectivePanel')!);
    console.log(`the surface in the 3-D view: ${JSON.stringify(surface)}`);
    expect(surface.changed).toBeGreaterThan(300);
    expect(surface.lime / surface.changed).toBeGreaterThan(0.8);
    // Under the drawn mark, Neuroglancer itself names the mark and the point's coordinates.
    const readout = await readoutAt(page, marked[0]!.markAt!);
    await shot(page, 'neuroglancer-stock-pointer');
    expect(readout.id).toBe(mark.id);
    expect([readout.at.x, readout.at.y, readout.at.z]).toEqual(point);
    // ... and the layers' values there, read from the stores: the ramp's value at that voxel, and its segment.
    const values = async () => {
      const texts = await page.locator('.neuroglancer-layer-item-value').allTextContents();
      return texts[0] && texts[1] ? texts.slice(0, 2) : undefined;
    };
    const [value, segment] = await waitFor(values, 'the value readouts');
    expect(value).toBe(String(rampValue(VOXEL)));
    expect(segment).toBe(String(segmentOf(VOXEL)));
    await context.close();
    expect(errors).toEqual([]);
  });
});
