/**
 * The room's picture against the page, in Chromium against a real host: one room with a scan
 * (a ring on its middle z slice and a cube off every middle slice), a sphere mesh beside it, a
 * point and a ruler, looked at straight down -z from a camera the room puts at the ring's
 * depth. The page's stage and `GET /api/rooms/{room}/image` at the stage's size are compared
 * by structure, not pixel by pixel: the mesh's region has the same dominant hue; the scan is
 * drawn as slices in both (the ring shows, the cube off the slices does not); the marks' colours
 * are where the marks are, the ruler's words a few pixels tall in both; both have the scale bar,
 * of the same length and label. Both images land in os.tmpdir()/vitrine-browser-shots.
 */
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { PNG } from 'pngjs';
import { describe, expect, it } from 'vitest';
import { readPngText } from '../../core/formats/png/png-text.ts';
import { hsvAt } from '../helpers/png-hsv.ts';
import { room as freshRoom, viewerQuery } from '../helpers/room.ts';
import { npyBytes } from '../helpers/specimens-dir.ts';
import { STATE_WAIT_MS } from '../helpers/wait-for.ts';
import { browserAndHost } from './browser-host.ts';
import { openPage, SHOTS_DIR } from './browser-session.ts';

const session = browserAndHost();

/** The scan's size, its middle slice, and the camera's distance in front of the middle. */
const N = 32;
const MID = 16;
const DISTANCE = 60;
// Each placed clear of the others, of the page's panels (top right, lower left) and of the ruler's words above it.
const MESH = { x: 27, y: 9, radius: 2.5 };
const POINT = [6, 8] as const;
const RULER = [[19, 1], [29, 1]] as const;

/**
 * The ring (radius 4..9 on the middle z slice, 68..84 along x) and the cube (top left, z 2..7,
 * 100): zero elsewhere, so both are the body above the page's see-through floor.
 */
function scanValue(i: number): number {
  const [x, y, z] = [i % N, Math.floor(i / N) % N, Math.floor(i / (N * N))];
  const r = Math.hypot(x - MID, y - MID);
  if (z === MID && r >= 4 && r <= 9) return 60 + x;
  return x >= 2 && x <= 8 && y >= 22 && y <= 28 && z >= 2 && z <= 7 ? 100 : 0;
}

async function api(method: string, route: string, body: unknown): Promise<void> {
  const response = await fetch(`${session.host.baseUrl}${route}`, { method, headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  expect(response.ok, `${method} ${route}: ${response.status} ${await response.clone().text()}`).toBe(true);
}

/** Where a point of the middle slice's plane (the target's depth) lands in an image `height` tall, `width` wide. */
function screenOf(png: PNG, x: number, y: number): [number, number] {
  const unitsPerPixel = (2 * DISTANCE * Math.tan((45 / 2) * (Math.PI / 180))) / png.height;
  return [png.width / 2 + (x - MID) / unitsPerPixel, png.height / 2 - (y - MID) / unitsPerPixel];
}

/** The pixels of `png` within the slice-plane region `inside(x, y)` (room units), which lies within `around` units of (cx, cy). */
function pixelsIn(png: PNG, [cx, cy, around]: [number, number, number], inside: (x: number, y: number) => boolean): { h: number; s: number; v: number }[] {
  const out = [];
  const unitsPerPixel = (2 * DISTANCE * Math.tan((45 / 2) * (Math.PI / 180))) / png.height;
  const [left, top] = screenOf(png, cx - around, cy + around).map((v) => Math.max(0, Math.floor(v)));
  const [right, bottom] = screenOf(png, cx + around, cy - around);
  for (let py = top!; py < Math.min(png.height, Math.ceil(bottom!)); py++) {
    for (let px = left!; px < Math.min(png.width, Math.ceil(right!)); px++) {
      if (inside(MID + (px + 0.5 - png.width / 2) * unitsPerPixel, MID - (py + 0.5 - png.height / 2) * unitsPerPixel)) out.push(hsvAt(png, px, py));
    }
  }
  return out;
}

const share = (pixels: { h: number; s: number; v: number }[], test: (p: { h: number; s: number; v: number }) => boolean): number =>
  pixels.filter(test).length / Math.max(1, pixels.length);

/** The mean hue of the saturated pixels (a circular mean, degrees 0..360). */
function meanHue(pixels: { h: number; s: number; v: number }[]): number {
  const lit = pixels.filter((p) => p.s > 0.35 && p.v > 0.25);
  const [sx, sy] = lit.reduce(([a, b], p) => [a + Math.cos((p.h * Math.PI) / 180), b + Math.sin((p.h * Math.PI) / 180)], [0, 0]);
  return ((Math.atan2(sy, sx) * 180) / Math.PI + 360) % 360;
}

/** The longest run of near-white pixels on one row of the lower right corner (the scale bar's line). */
function longestWhiteRun(png: PNG): number {
  let best = 0;
  for (let y = png.height - 70; y < png.height; y++) {
    let run = 0;
    for (let x = png.width - 240; x < png.width; x++) {
      const { s, v } = hsvAt(png, x, y);
      run = v > 0.8 && s < 0.15 ? run + 1 : 0;
      best = Math.max(best, run);
    }
  }
  return best;
}

/**
 * How tall the ruler's words are drawn, pixels: the rows of the mark's green within 40 pixels of
 * the ruler's middle and 8 to 70 pixels above it (clear of its markers, the ring and the mesh).
 */
function wordsHeight(png: PNG, green: (p: { h: number; s: number; v: number }) => boolean): number {
  const [[ax, ay], [bx]] = [screenOf(png, ...RULER[0]), screenOf(png, ...RULER[1])];
  const middle = Math.round((ax + bx) / 2);
  const rows = [];
  for (let y = Math.round(ay - 70); y < ay - 8; y++) {
    for (let x = middle - 40; x < middle + 40; x++) {
      if (green(hsvAt(png, x, y))) {
        rows.push(y);
        break;
      }
    }
  }
  return rows.length === 0 ? 0 : rows.at(-1)! - rows[0]! + 1;
}

/** What both images must show alike, read from one of them. */
function structureOf(png: PNG) {
  const coloured = (p: { v: number }): boolean => p.v > 0.25;
  const yellow = (p: { h: number; s: number; v: number }): boolean => p.h > 30 && p.h < 60 && p.s > 0.5 && p.v > 0.6;
  // The page's one-pixel line comes out duller than its markers (85, 119, 103 for #5cf2a0): still green.
  const green = (p: { h: number; s: number; v: number }): boolean => p.h > 125 && p.h < 175 && p.s > 0.2 && p.v > 0.35;
  const [[ax, ay], [bx, by]] = [screenOf(png, ...RULER[0]), screenOf(png, ...RULER[1])];
  // Samples along the ruler's middle, each looked for within two pixels of the line.
  const along = Array.from({ length: 13 }, (_, k) => ax + (bx - ax) * (0.2 + (0.6 * k) / 12));
  const rulerSeen = along.filter((x) => [-2, -1, 0, 1, 2].some((d) => green(hsvAt(png, x, (ay + by) / 2 + d)))).length / along.length;
  return {
    meshHue: meanHue(pixelsIn(png, [MESH.x, MESH.y, MESH.radius], (x, y) => Math.hypot(x - MESH.x, y - MESH.y) < MESH.radius - 1)),
    ring: share(pixelsIn(png, [MID, MID, 9], (x, y) => Math.hypot(x - MID, y - MID) > 4.5 && Math.hypot(x - MID, y - MID) < 8.5 && x > 9), coloured),
    cube: share(pixelsIn(png, [5.25, 25, 3], (x, y) => x > 2.5 && x < 8 && y > 22.5 && y < 27.5), coloured),
    point: share(pixelsIn(png, [...POINT, 1], (x, y) => Math.hypot(x - POINT[0], y - POINT[1]) < 0.25), yellow),
    rulerSeen,
    words: wordsHeight(png, green),
    bar: longestWhiteRun(png),
  };
}

describe("the room's picture draws what the page draws", () => {
  it('the same mode, colours, marks and scale bar for a room of a scan, a mesh, a point and a ruler', async () => {
    const { baseUrl } = session.host;
    const put = await fetch(`${baseUrl}/api/specimens/picture-scan?filename=scan.npy&unit=mm`, {
      method: 'PUT', headers: { 'content-type': 'application/octet-stream' }, body: new Uint8Array(npyBytes([N, N, N], 'little', scanValue)),
    });
    expect(put.status).toBe(201);
    const room = freshRoom('picture');
    const ball = [MESH.radius, 0, 0, MESH.x, 0, MESH.radius, 0, MESH.y, 0, 0, MESH.radius, MID, 0, 0, 0, 1];
    await api('PUT', `/api/rooms/${room}/scene`, {
      layers: [
        { id: 'scan', source: { specimen: 'picture-scan' } },
        { id: 'ball', source: { function: 'shape', params: { kind: 'sphere', segments: 24, radius: 1, wobble: 0 } }, affine: ball },
      ],
      active: 'scan',
    });
    await api('POST', `/api/rooms/${room}/annotations`, [
      { kind: 'point', points: [[...POINT, MID]] },
      { kind: 'line', points: RULER.map(([x, y]) => [x, y, MID]) },
    ]);
    await api('PUT', `/api/rooms/${room}/view`, { camera: { position: [MID, MID, MID + DISTANCE], target: [MID, MID, MID], up: [0, 1, 0] } });

    const { page, errors } = await openPage(session.browser, session.contexts, `${baseUrl}/${viewerQuery({ room, follow: true })}`);
    await page.waitForFunction(
      () => {
        const canvas = document.querySelector<HTMLElement>('canvas.stage-canvas');
        const layers = (canvas?.dataset.layersDrawn ?? '').split(' ').sort().join(' ');
        const bar = document.querySelector('[data-testid=scale-bar-label]')?.textContent ?? '';
        return layers === 'ball scan' && canvas?.dataset.marks === '2' && canvas.dataset.roomCamera !== undefined && bar.endsWith(' mm');
      },
      null,
      { timeout: STATE_WAIT_MS },
    );
    // The last change asked for a frame: the stage draws it at the next animation frame, before the second.
    await page.evaluate(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))));
    const stage = (await page.locator('canvas.stage-canvas').boundingBox())!;
    const [width, height] = await page.evaluate(() => {
      const canvas = document.querySelector<HTMLCanvasElement>('canvas.stage-canvas')!;
      return [canvas.clientWidth, canvas.clientHeight];
    });
    const pageShot = PNG.sync.read(await page.screenshot({ clip: { x: stage.x, y: stage.y, width, height } }));
    const label = (await page.locator('[data-testid=scale-bar-label]').textContent()) ?? '';
    const barPixels = Number(await page.locator('[data-testid=scale-bar]').getAttribute('data-pixels'));

    const answer = await fetch(`${baseUrl}/api/rooms/${room}/image?w=${width}&h=${height}`);
    expect(answer.status).toBe(200);
    const bytes = new Uint8Array(await answer.arrayBuffer());
    const picture = PNG.sync.read(Buffer.from(bytes));
    await writeFile(path.join(SHOTS_DIR, 'room-picture-page.png'), PNG.sync.write(pageShot));
    await writeFile(path.join(SHOTS_DIR, 'room-picture-host.png'), bytes);

    const seen = { page: structureOf(pageShot), picture: structureOf(picture) };
    for (const [name, s] of Object.entries(seen)) {
      const where = `${name}: ${JSON.stringify(s)}`;
      // The mesh in the page's blue (#5f9fd6, hue 207), not another colour.
      expect(s.meshHue, where).toBeGreaterThan(190);
      expect(s.meshHue, where).toBeLessThan(235);
      // Slices: the ring on the middle slice shows, the cube off every middle slice does not.
      expect(s.ring, where).toBeGreaterThan(0.6);
      expect(s.cube, where).toBeLessThan(0.05);
      // The point's yellow where the point is; the ruler's green along the ruler.
      expect(s.point, where).toBeGreaterThan(0.5);
      expect(s.rulerSeen, where).toBeGreaterThan(0.8);
      // The ruler's words a few pixels tall, as a scale bar writes, not spread across the data.
      expect(s.words, where).toBeGreaterThanOrEqual(8);
      expect(s.words, where).toBeLessThanOrEqual(18);
      // The scale bar's line, as long as the page's.
      expect(Math.abs(s.bar - barPixels), where).toBeLessThanOrEqual(3);
    }
    expect(Math.abs(seen.page.meshHue - seen.picture.meshHue)).toBeLessThan(20);
    expect(Math.abs(seen.page.words - seen.picture.words)).toBeLessThanOrEqual(4);
    expect(label).toMatch(/^\d+(\.\d+)? mm$/);
    expect(readPngText(bytes)['Scale bar']).toBe(label);
    expect(errors).toEqual([]);
  });
});
