/**
 * The scale bar and the pointer's physical coordinates on the page, in Chromium against a real
 * host: a scan published with spacing (0.5, 0.25, 0.25) mm and origin (1, 2, 3) mm (C order),
 * looked at straight down -z from a camera the room puts there. The bar's label is a round
 * length in mm and its drawn length is that length at the scale the camera gives the target's
 * depth; moving the camera eight times farther out gives another round length. The pointer over
 * a known voxel of the slice reads that voxel's centre, origin + spacing × index, in mm beside
 * its index and value. Screenshots land in os.tmpdir()/vitrine-browser-shots.
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { STATIC_CUBE_OBJ } from '../client/host-process.ts';
import { npyBytes } from '../helpers/specimens-dir.ts';
import { room as freshRoom, viewerQuery } from '../helpers/room.ts';
import { STATE_WAIT_MS } from '../helpers/wait-for.ts';
import { browserAndHost } from './browser-host.ts';
import { DRAW_SCALE, openPage, shot, waitForDrawn } from './browser-session.ts';

const session = browserAndHost([], DRAW_SCALE);

/** The scan's voxel centres run from the origin by the spacing: x 3 + 0.25 i, y 2 + 0.25 j, z 1 + 0.5 k. */
const SHAPE = [4, 10, 10];
const centreOf = (x: number, y: number, z: number): [number, number, number] => [3 + 0.25 * x, 2 + 0.25 * y, 1 + 0.5 * z];
/** The middle of the scan's box, where the camera looks. */
const MIDDLE: [number, number, number] = [3 + 0.25 * 4.5, 2 + 0.25 * 4.5, 1 + 0.5 * 1.5];
const HALF_FOV = (45 / 2) * (Math.PI / 180);

/** Puts the room's camera `distance` mm in front of the scan's middle, looking down -z, and waits for a frame drawn from there. */
async function lookFrom(page: Page, room: string, distance: number): Promise<void> {
  const position = [MIDDLE[0], MIDDLE[1], MIDDLE[2] + distance];
  const response = await fetch(`${session.host.baseUrl}/api/rooms/${room}/view`, {
    method: 'PUT', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ camera: { position, target: MIDDLE, up: [0, 1, 0] } }),
  });
  expect(response.status).toBe(200);
  await page.waitForFunction(
    (z) => JSON.parse(document.querySelector<HTMLElement>('canvas.stage-canvas')?.dataset.roomCamera ?? 'null')?.position[2] === z,
    Number(position[2]!.toFixed(4)), { timeout: STATE_WAIT_MS },
  );
  // The camera is applied with a frame asked for: the stage's loop draws it at the next animation frame, before the second.
  await page.evaluate(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))));
}

/** The bar as the page shows it, and the scale the camera gives at the target's depth (mm per CSS pixel). */
async function readBar(page: Page, distance: number): Promise<{ label: string; length: number; pixels: number; drawn: number; mmPerPixel: number }> {
  const bar = page.locator('[data-testid=scale-bar]');
  const height = (await page.locator('canvas.stage-canvas').boundingBox())!.height;
  return {
    label: (await page.locator('[data-testid=scale-bar-label]').textContent()) ?? '',
    length: Number(await bar.getAttribute('data-length')),
    pixels: Number(await bar.getAttribute('data-pixels')),
    drawn: (await bar.locator('.scale-bar-line').boundingBox())!.width,
    mmPerPixel: (2 * distance * Math.tan(HALF_FOV)) / height,
  };
}

/** True when `value` is 1, 2 or 5 times a power of ten. */
const isRound = (value: number): boolean => {
  const mantissa = value / 10 ** Math.floor(Math.log10(value) + 1e-9);
  return [1, 2, 5].some((m) => Math.abs(mantissa - m) < 1e-9);
};

describe('scale bar and pointer coordinates on the page', () => {
  it('labels a round length that matches the camera, and reads a voxel’s physical centre', async () => {
    const put = await fetch(`${session.host.baseUrl}/api/specimens/scaled-scan?filename=scan.npy&spacing=0.5,0.25,0.25&origin=1,2,3&unit=mm`, {
      method: 'PUT', headers: { 'content-type': 'application/octet-stream' }, body: new Uint8Array(npyBytes(SHAPE)),
    });
    expect(put.status).toBe(201);
    const room = freshRoom('scale-bar');
    const link = `${session.host.baseUrl}/${viewerQuery({ specimen: 'scaled-scan', room, follow: true })}`;
    const { page, errors } = await openPage(session.browser, session.contexts, link);
    await waitForDrawn(page);
    // The unit comes from the result once it is looked up.
    await page.waitForFunction(() => document.querySelector('[data-testid=scale-bar-label]')?.textContent?.endsWith(' mm'), null, { timeout: STATE_WAIT_MS });

    await lookFrom(page, room, 5);
    const near = await readBar(page, 5);
    expect(isRound(near.length), `${near.length} is round`).toBe(true);
    expect(near.label).toBe(`${near.length} mm`);
    expect(near.pixels).toBeCloseTo(near.length / near.mmPerPixel, 0);
    expect(near.drawn).toBeCloseTo(near.pixels, 0);
    expect(near.pixels).toBeGreaterThanOrEqual(60);
    expect(near.pixels).toBeLessThanOrEqual(150);

    // The pointer on voxel (7, 2) of the z slice (off the x and y slices, which stand at the middle).
    const canvas = (await page.locator('canvas.stage-canvas').boundingBox())!;
    const readout = page.locator('[data-testid=value-readout]');
    const position = page.locator('[data-testid=pointer-position]');
    const aimAt = async (point: [number, number, number]): Promise<void> => {
      const depth = MIDDLE[2] + 5 - point[2];
      const halfHeight = depth * Math.tan(HALF_FOV);
      const x = canvas.x + ((1 + (point[0] - MIDDLE[0]) / (halfHeight * (canvas.width / canvas.height))) / 2) * canvas.width;
      const y = canvas.y + ((1 - (point[1] - MIDDLE[1]) / halfHeight) / 2) * canvas.height;
      await page.mouse.move(x, y);
    };
    // The slice's depth is its voxel's: first aim at the scan's middle depth, read which z the slice shows, then aim on it.
    await aimAt(centreOf(7, 2, 1.5));
    await page.waitForFunction(() => document.querySelector<HTMLElement>('[data-testid=value-readout]')?.dataset.value);
    const z = Number(/z (\d+)$/.exec((await readout.textContent()) ?? '')?.[1]);
    await aimAt(centreOf(7, 2, z));
    await page.waitForFunction((want) => document.querySelector('[data-testid=value-readout]')?.textContent === want, `${z * 100 + 27} at x 7, y 2, z ${z}`, {
      timeout: STATE_WAIT_MS,
    });
    const [px, py, pz] = centreOf(7, 2, z);
    expect(JSON.parse((await position.getAttribute('data-position')) ?? 'null')).toEqual([px, py, pz]);
    expect(await position.getAttribute('data-unit')).toBe('mm');
    expect(await position.textContent()).toBe(`x ${px}, y ${py}, z ${pz} mm`);
    await shot(page, 'scale-bar-near');

    // Eight times farther: another round length, again as long as the camera says.
    await lookFrom(page, room, 40);
    const far = await readBar(page, 40);
    expect(far.length).not.toBe(near.length);
    expect(isRound(far.length), `${far.length} is round`).toBe(true);
    expect(far.label).toBe(`${far.length} mm`);
    expect(far.pixels).toBeCloseTo(far.length / far.mmPerPixel, 0);
    expect(far.drawn).toBeCloseTo(far.pixels, 0);
    // The pointer stayed where the voxel was; from eight times farther the scan is small, and off it the readout says so.
    await page.waitForFunction(() => document.querySelector('[data-testid=pointer-position]')?.textContent === '–', null, { timeout: STATE_WAIT_MS });
    expect(await readout.getAttribute('data-value')).toBe('');
    await shot(page, 'scale-bar-far');
    expect(errors).toEqual([]);
  });

  it('says "units" for a result that states none, and does not ask the host for it every frame', async () => {
    const put = await fetch(`${session.host.baseUrl}/api/specimens/plain-cube?filename=cube.obj`, {
      method: 'PUT', headers: { 'content-type': 'application/octet-stream' }, body: STATIC_CUBE_OBJ,
    });
    expect(put.status).toBe(201);
    const link = `${session.host.baseUrl}/${viewerQuery({ specimen: 'plain-cube', room: freshRoom('scale-bar-units') })}`;
    const { page, errors, requests } = await openPage(session.browser, session.contexts, link);
    await waitForDrawn(page);
    const label = page.locator('[data-testid=scale-bar-label]');
    await label.waitFor();
    const before = (await label.textContent()) ?? '';
    expect(before).toMatch(/^\d+(\.\d+)? units$/);
    // Wheel out: the camera backs away, and the bar steps to longer round lengths.
    const canvas = (await page.locator('canvas.stage-canvas').boundingBox())!;
    await page.mouse.move(canvas.x + canvas.width / 2, canvas.y + canvas.height / 2);
    for (let i = 0; i < 12; i++) await page.mouse.wheel(0, 400);
    await page.waitForFunction((was) => {
      const now = document.querySelector('[data-testid=scale-bar-label]')?.textContent ?? '';
      return now !== was && / units$/.test(now);
    }, before, { timeout: STATE_WAIT_MS });
    const after = (await label.textContent()) ?? '';
    expect(Number.parseFloat(after)).toBeGreaterThan(Number.parseFloat(before));
    // On the cube: the readout says a surface, and the row under it where, in "units".
    await page.mouse.move(canvas.x + canvas.width / 2 + 1, canvas.y + canvas.height / 2 + 1);
    await page.waitForFunction(() => document.querySelector('[data-testid=value-readout]')?.textContent === 'surface', null, { timeout: STATE_WAIT_MS });
    const position = page.locator('[data-testid=pointer-position]');
    expect(await position.textContent()).toMatch(/^x -?[\d.]+, y -?[\d.]+, z -?[\d.]+ units$/);
    // The entry has no affine: its frame is the room's, where the readout's point is.
    expect(await position.getAttribute('data-position')).toBe(await page.locator('[data-testid=value-readout]').getAttribute('data-point'));
    await shot(page, 'scale-bar-units');
    // A frame drawn per step of the zoom, each wanting the unit: the room's entry was asked for it
    // before the cube came and once it was shown, not once a frame.
    expect(requests.filter((request) => request.url().endsWith('/entry')).length).toBeLessThanOrEqual(2);
    expect(errors).toEqual([]);
  });
});
