/**
 * Surfaces drawn from their levels of detail, in Debian's Chromium against a real host: a
 * mesh of 200,000 triangles (over `--mesh-lod-triangles`, so it has levels), a room's layer,
 * is drawn from its octree on the page, coarsest level first and without its data ever
 * fetched, and as the page's own subject in VR; a scripted fly-through on the page and in WebXR (IWER's Quest 3) stays within the frame's
 * triangle budget in every frame with no frame showing a hole, and refines as the camera comes
 * close. A published segmentation shown as surfaces draws each segment in its label's colour,
 * and pointing at one names its label. Screenshots land in os.tmpdir()/vitrine-browser-shots.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Browser, BrowserContext, Page, Request } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { labelRgb } from '../../core/wire/label-colors.ts';
import { fixturePluginsDir } from '../helpers/fixture-plugins.ts';
import { room as freshRoom } from '../helpers/room.ts';
import { makeSpecimensDir } from '../helpers/specimens-dir.ts';
import { spawnHost, type RunningHost } from '../helpers/spawn-host.ts';
import { STATE_WAIT_MS } from '../helpers/wait-for.ts';
import { npyBytes } from '../fixtures/specimens/npy-writer.ts';
import { openHeadsetPage, shot } from './browser-session.ts';
import { fileBrowser } from './fork-browser.ts';
import { firstPictures, flyHeadset, flyPage, line, lodLayers } from './lod-fly.ts';
import { framesPass } from './vr-controller.ts';

let host: RunningHost;
let browser: Browser;
const contexts: BrowserContext[] = [];

/** The frame budget the pages are given (far under the mesh's triangles, so it binds). */
const BUDGET = 30_000;
const N = 64;

/** A ball of four wavy segments (ids 1 to 4), uint8 [z, y, x]. */
function segmentation(): Buffer {
  const data = new Uint8Array(N ** 3);
  const seeds = [[0.3, 0.3, 0.3], [0.7, 0.3, 0.6], [0.4, 0.7, 0.7], [0.7, 0.7, 0.3]].map((s) => s.map((v) => v * N));
  for (let z = 0; z < N; z++)
    for (let y = 0; y < N; y++)
      for (let x = 0; x < N; x++) {
        if (Math.hypot(x - N / 2, y - N / 2, z - N / 2) >= N * 0.45) continue;
        const wave = 3 * Math.sin(x / 4) * Math.cos(y / 5);
        const d = seeds.map(([sx, sy, sz]) => (x - sx!) ** 2 + (y - sy! + wave) ** 2 + (z - sz!) ** 2);
        data[(z * N + y) * N + x] = 1 + d.indexOf(Math.min(...d));
      }
  return npyBytes({ descr: '|u1', shape: [N, N, N], data });
}

beforeAll(async () => {
  const specimens = await makeSpecimensDir();
  await mkdir(path.join(specimens, 'big-mesh'));
  const spec = { id: 'big-mesh', display_name: 'Big mesh', type: 'mesh', function_name: 'dense_mesh' };
  await writeFile(path.join(specimens, 'big-mesh', 'specimen.json'), JSON.stringify(spec));
  const args = ['--port', '0', '--plugins', await fixturePluginsDir(), '--specimens', specimens, '--mesh-lod-triangles', '20000'];
  [host, browser] = await Promise.all([spawnHost(args), fileBrowser()]);
  const put = await fetch(`${host.url}/api/specimens/seg?filename=seg.npy&role=labels`, {
    method: 'PUT',
    headers: { 'content-type': 'application/octet-stream' },
    body: new Uint8Array(segmentation()),
  });
  expect(put.status).toBe(201);
});

// A test's pages close when it ends: the headset's session, left presenting, would draw the
// large mesh for both eyes every frame, in software, through the next test. The desk tab stays
// (at rest, a page draws nothing) for the next desk check to load its own URL into: a page of
// its own cost Chromium a renderer and a cold start of the viewer more.
let deskTab: Page | undefined;
const openDeskTab = async (): Promise<Page> => {
  if (!deskTab || deskTab.isClosed()) deskTab = await (await browser.newContext({ viewport: { width: 1280, height: 800 } })).newPage();
  return deskTab;
};
afterEach(async () => {
  await Promise.all(contexts.splice(0).map((context) => context.close()));
});

afterAll(async () => {
  await browser?.close();
  await host?.stop();
});

/** The viewer on the big mesh specimen in `room` (its page path: its levels found from its coarse answer). */
const bigMesh = (room: string, extra: Record<string, string> = {}): string =>
  `${host.url}/?${new URLSearchParams({ specimen: 'big-mesh', room, params: JSON.stringify({ triangles: 200_000 }), ...extra })}`;

describe('surfaces drawn from their levels of detail', () => {
  it('draws a large mesh layer coarse first and flies through it on the page within the budget, with no holes', async () => {
    const room = freshRoom('lod-page');
    // The room's entry is a small hidden triangle; the large mesh is a layer of its scene.
    const layers = [
      { id: 'tri', source: { specimen: 'tri' }, visible: false },
      { id: 'big', source: { function: 'dense_mesh', params: { triangles: 200_000 } } },
    ];
    const scene = await fetch(`${host.url}/api/rooms/${room}/scene`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ layers, active: 'tri' }),
    });
    expect(scene.status).toBe(200);
    const page = await openDeskTab();
    const requests: Request[] = [];
    page.on('request', (r) => requests.push(r));
    await page.goto(`${host.url}/?room=${room}&follow=1&lod_triangles=${BUDGET}`);
    const [first] = await firstPictures(page, 1);
    // The first picture is the coarsest level alone.
    expect(first!.levels.slice(0, -1).every((n) => n === 0)).toBe(true);
    expect(first!.levels.length).toBeGreaterThanOrEqual(3);
    await shot(page, 'lod-page-first');
    // The catalog's thumbnails waited for that picture (or, past a few seconds, no longer): none started before it.
    // (The entry's triangle is a mesh: its own thumbnail, read for its colour, is part of the picture.)
    const own = '/tri/thumbnail';
    await page.waitForFunction(
      (skip) => performance.getEntriesByType('resource').some((e) => e.name.endsWith('/thumbnail') && !e.name.endsWith(skip)),
      own,
    );
    const gate = await page.evaluate((skip) => {
      const tiles = performance.getEntriesByType('resource').filter((e) => e.name.endsWith('/thumbnail') && !e.name.endsWith(skip));
      const shown = (selector: string) => document.querySelector<HTMLElement>(selector)!.dataset;
      const picture = Number(shown('canvas.stage-canvas').firstPicture);
      return { why: shown('[data-testid=catalog]').thumbnails, picture, thumbnails: tiles.map((e) => e.startTime) };
    }, own);
    if (gate.why === 'ready') expect(Math.min(...gate.thumbnails)).toBeGreaterThanOrEqual(gate.picture);
    else expect([gate.why, gate.picture > Math.min(...gate.thumbnails) || Number.isNaN(gate.picture)]).toEqual(['timeout', true]);
    // From 6 radii out, through the surface to the centre's side, and back: 13 stops, each drawn.
    // (Six steps cross the same levels as twelve: the path's ends are what set them; every
    // frame on the way, a longer jump's included, keeps to the budget with no hole.)
    await flyPage(page, host.url, room, line([0.4, 0.3, 6], [0.1, 0.05, 0.4], 6), [0, 0, 0]);
    const [flown] = await lodLayers(page);
    await shot(page, 'lod-page-flown');
    expect(flown!.maxTriangles).toBeLessThanOrEqual(BUDGET);
    expect(flown!.holeFrames).toBe(0);
    expect(flown!.frames).toBeGreaterThan(12);
    // Coming close, finer levels were fetched; the mesh's own data never was.
    expect(flown!.started).toBeGreaterThan(2);
    expect(requests.filter((r) => r.url().includes('/layers/big/data')).map((r) => r.url())).toEqual([]);
    expect(requests.some((r) => /\/meshes\/1\/[0-9]+\/[0-9]+\.glb$/.test(r.url()))).toBe(true);
  });

  it('flies through it in WebXR on the headset budget, with no holes', async () => {
    const { page } = await openHeadsetPage(browser, contexts, bigMesh(freshRoom('lod-vr'), { xr_triangles: String(BUDGET) }));
    await firstPictures(page, 1);
    await page.getByRole('button', { name: 'Enter VR' }).click();
    await page.waitForFunction(() => window.vitrineVr?.state().presenting === true, null, { timeout: STATE_WAIT_MS });
    await framesPass(page, 5);
    await page.evaluate(() => window.vitrineLod!.reset());
    // The specimen stands a metre in front at table height: walk up to it and back, in four
    // steps each way (ten stops of four session frames: the same nearest stop as eight steps).
    await flyHeadset(page, [0, 1.6, 0.6], [0, 1.1, -0.55], 4);
    const [flown] = await lodLayers(page);
    await shot(page, 'lod-vr-flown');
    expect(flown!.vrFrames).toBeGreaterThan(30);
    expect(flown!.budget).toBe(BUDGET);
    expect(flown!.maxTriangles).toBeLessThanOrEqual(BUDGET);
    expect(flown!.holeFrames).toBe(0);
  });

  it('draws a segmentation as surfaces in its labels\' colours, and pointing at one names its label', async () => {
    const room = freshRoom('lod-labels');
    const scene = await fetch(`${host.url}/api/rooms/${room}/scene`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ layers: [{ id: 'seg', source: { specimen: 'seg' }, kind: 'labels', mode: 'surface' }] }),
    });
    expect(scene.status).toBe(200);
    const page = await openDeskTab();
    await page.goto(`${host.url}/?room=${room}&follow=1`);
    const [layer] = await firstPictures(page, 1);
    expect(layer!.segments).toBe(4);
    const file = await shot(page, 'lod-labels');
    expect(file).toBeTruthy();
    // The canvas's centre shows one of the four labels' colours (lit: its hue, not its exact bytes).
    const box = (await page.locator('canvas.stage-canvas').boundingBox())!;
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    const readout = page.locator('[data-testid=value-readout]');
    await expect.poll(() => readout.getAttribute('data-label'), { timeout: STATE_WAIT_MS }).toMatch(/^[1-4]$/);
    const id = Number(await readout.getAttribute('data-label'));
    expect(await readout.textContent()).toContain(`label ${id}`);
    expect(labelRgb(id)).toHaveLength(3);
  });
});
