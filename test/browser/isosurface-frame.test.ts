/**
 * One frame for every result: a scan published without `origin` stands at origin 0 wherever it
 * is used. The isosurface of an off-centre blob (a scan of 48×32×32 voxels, spacing (2, 1, 1),
 * the blob a sphere of radius 5 at (10, 20, 60)) lies within one voxel of the blob, published
 * with and without `origin` alike: in the mesh the host answers, in the page following the room
 * and in the room's picture (the camera looking down -z at the blob's centre, the mesh's blue
 * centred there within a voxel). Both images land in os.tmpdir()/vitrine-browser-shots.
 */
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { PNG } from 'pngjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext } from 'playwright-core';
import { hsvAt } from '../helpers/png-hsv.ts';
import { room as freshRoom, viewerQuery } from '../helpers/room.ts';
import { npyBytes } from '../helpers/specimens-dir.ts';
import { someExamplePlugins } from '../helpers/example-plugins.ts';
import { spawnHost, type RunningHost } from '../helpers/spawn-host.ts';
import { STATE_WAIT_MS } from '../helpers/wait-for.ts';
import { openPage, SHOTS_DIR } from './browser-session.ts';
import { fileBrowser } from './fork-browser.ts';

const SHAPE = [48, 32, 32];
const SPACING = [2, 1, 1];
/** The blob's centre (x, y, z) and radius, physical units. */
const BLOB = { x: 10, y: 20, z: 60, r: 5 };
const DISTANCE = 60;

let host: RunningHost;
let browser: Browser;
const contexts: BrowserContext[] = [];

beforeAll(async () => {
  // The isosurface example alone: on all of build/out the host would start the Python example's
  // warm processes too, which no test here calls.
  const plugins = someExamplePlugins('isosurfaces');
  [host, browser] = await Promise.all([
    spawnHost(['--host', '127.0.0.1', '--port', '0', '--plugins', plugins, '--specimens', 'none', '--log-level', 'warn']),
    fileBrowser(),
  ]);
}, 120_000);

afterAll(async () => {
  await Promise.all(contexts.map((c) => c.close()));
  await browser?.close();
  await host?.stop();
});

/** 200 inside the blob, 0 elsewhere; voxel (z, y, x) at index × spacing from the first voxel. */
function blobValue(i: number): number {
  const [x, y, z] = [i % SHAPE[2]!, Math.floor(i / SHAPE[2]!) % SHAPE[1]!, Math.floor(i / (SHAPE[1]! * SHAPE[2]!))];
  return Math.hypot(x * SPACING[2]! - BLOB.x, y * SPACING[1]! - BLOB.y, z * SPACING[0]! - BLOB.z) < BLOB.r ? 200 : 0;
}

async function send(method: string, route: string, body: unknown): Promise<Response> {
  const answer = await fetch(`${host.url}${route}`, { method, headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  expect(answer.ok, `${method} ${route}: ${answer.status} ${await answer.clone().text()}`).toBe(true);
  return answer;
}

/** The bounds (x, y, z) of an OBJ's vertices. */
function objBounds(obj: string): { min: number[]; max: number[] } {
  const min = [Infinity, Infinity, Infinity], max = [-Infinity, -Infinity, -Infinity];
  for (const line of obj.split('\n')) {
    if (!line.startsWith('v ')) continue;
    line.slice(2).trim().split(/\s+/).map(Number).forEach((v, k) => ((min[k] = Math.min(min[k]!, v)), (max[k] = Math.max(max[k]!, v))));
  }
  return { min, max };
}

/** Where the mesh's blue lies in `png` (physical x, y in the blob's plane), and how many pixels show it, within 12 units of the centre. */
function meshCentre(png: PNG): { x: number; y: number; pixels: number } {
  const unitsPerPixel = (2 * DISTANCE * Math.tan((45 / 2) * (Math.PI / 180))) / png.height;
  const reach = Math.round(12 / unitsPerPixel);
  let [sx, sy, n] = [0, 0, 0];
  for (let py = Math.max(0, png.height / 2 - reach); py < Math.min(png.height, png.height / 2 + reach); py++) {
    for (let px = Math.max(0, png.width / 2 - reach); px < Math.min(png.width, png.width / 2 + reach); px++) {
      const { h, s, v } = hsvAt(png, px, py);
      if (h > 185 && h < 235 && s > 0.3 && v > 0.28) [sx, sy, n] = [sx + px + 0.5, sy + py + 0.5, n + 1];
    }
  }
  return { x: BLOB.x + (sx / n - png.width / 2) * unitsPerPixel, y: BLOB.y - (sy / n - png.height / 2) * unitsPerPixel, pixels: n };
}

describe('an isosurface lies on the scan it was made from, with or without origin', { timeout: 240_000 }, () => {
  it.each([
    ['without origin', ''],
    ['with origin (0, 0, 0)', '&origin=0,0,0'],
  ])('%s: in the mesh, the page and the picture', async (label, origin) => {
    const id = freshRoom('blob-scan');
    const put = await fetch(`${host.url}/api/specimens/${id}?filename=scan.npy&spacing=${SPACING.join(',')}&unit=micrometer${origin}`, {
      method: 'PUT', headers: { 'content-type': 'application/octet-stream' }, body: new Uint8Array(npyBytes(SHAPE, 'little', blobValue)),
    });
    expect(put.status).toBe(201);
    const room = freshRoom('blob-surface');
    const surface = { function: 'isosurface', params: { volume: { specimen: id }, level: 0.5 } };
    // The scan is the room's entry, hidden: the surface is drawn as a layer of the room, in the page's mesh blue.
    const layers = [{ id: 'scan', source: { specimen: id }, visible: false }, { id: 'surface', source: surface }];
    await send('PUT', `/api/rooms/${room}/scene`, { layers, active: 'scan' });
    const centre = [BLOB.x, BLOB.y, BLOB.z];
    await send('PUT', `/api/rooms/${room}/view`, { camera: { position: [BLOB.x, BLOB.y, BLOB.z + DISTANCE], target: centre, up: [0, 1, 0] } });

    // The mesh: within one voxel (its spacing along each axis) of the blob's sphere.
    const obj = await (await fetch(`${host.url}/api/rooms/${room}/layers/surface/data?format=obj`)).text();
    const bounds = objBounds(obj);
    const voxel = [SPACING[2]!, SPACING[1]!, SPACING[0]!];
    for (let k = 0; k < 3; k++) {
      expect(Math.abs(bounds.min[k]! - (centre[k]! - BLOB.r)), `${label}: min ${k} ${JSON.stringify(bounds)}`).toBeLessThanOrEqual(voxel[k]!);
      expect(Math.abs(bounds.max[k]! - (centre[k]! + BLOB.r)), `${label}: max ${k} ${JSON.stringify(bounds)}`).toBeLessThanOrEqual(voxel[k]!);
    }

    const { page, errors } = await openPage(browser, contexts, `${host.url}/${viewerQuery({ room, follow: true })}`);
    await page.waitForFunction(
      () => {
        const canvas = document.querySelector<HTMLElement>('canvas.stage-canvas');
        return canvas?.dataset.layersDrawn === 'surface' && canvas.dataset.roomCamera !== undefined;
      },
      null,
      { timeout: STATE_WAIT_MS },
    );
    await page.evaluate(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))));
    const stage = (await page.locator('canvas.stage-canvas').boundingBox())!;
    const [width, height] = await page.evaluate(() => {
      const canvas = document.querySelector<HTMLCanvasElement>('canvas.stage-canvas')!;
      return [canvas.clientWidth, canvas.clientHeight];
    });
    const pageShot = PNG.sync.read(await page.screenshot({ clip: { x: stage.x, y: stage.y, width, height } }));
    const answer = await fetch(`${host.url}/api/rooms/${room}/image?w=${width}&h=${height}`);
    expect(answer.status).toBe(200);
    const picture = PNG.sync.read(Buffer.from(await answer.arrayBuffer()));
    const tag = origin ? 'origin' : 'no-origin';
    await writeFile(path.join(SHOTS_DIR, `isosurface-frame-page-${tag}.png`), PNG.sync.write(pageShot));
    await writeFile(path.join(SHOTS_DIR, `isosurface-frame-picture-${tag}.png`), PNG.sync.write(picture));

    for (const [name, png] of [['page', pageShot], ['picture', picture]] as const) {
      const seen = meshCentre(png);
      const where = `${label}, ${name}: ${JSON.stringify(seen)}`;
      expect(seen.pixels, where).toBeGreaterThan(500);
      expect(Math.abs(seen.x - BLOB.x), where).toBeLessThanOrEqual(SPACING[2]!);
      expect(Math.abs(seen.y - BLOB.y), where).toBeLessThanOrEqual(SPACING[1]!);
    }
    expect(errors).toEqual([]);
  });
});
