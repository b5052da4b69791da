/**
 * The scale bar and physical coordinates in VR, in Debian's Chromium with Meta's IWER emulating
 * a Quest 3: on a scan published with spacing (0.5, 0.25, 0.25) mm and origin (1, 2, 3) mm (C
 * order), a bar of a round length in mm stands by the specimen as long in the room as that
 * length at the specimen's scale, and the panel says it; the controller's ray on a voxel of the
 * slice reads that voxel's centre in mm, and pointed at nothing, the controller's tip reads where
 * it is in the scan's frame. Screenshots of the emulated session land in
 * os.tmpdir()/vitrine-browser-shots.
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { npyBytes } from '../helpers/specimens-dir.ts';
import { room as freshRoom, viewerQuery } from '../helpers/room.ts';
import { STATE_WAIT_MS } from '../helpers/wait-for.ts';
import { browserAndHost } from './browser-host.ts';
import { DRAW_SCALE, openHeadsetPage, shot } from './browser-session.ts';
import { aimAt, framesPass, type Vec } from './vr-controller.ts';

const session = browserAndHost([], DRAW_SCALE);

type Pointer = NonNullable<ReturnType<NonNullable<Window['vitrineVr']>['state']>['pointer']>;

/** Waits until the panel says where the controller points as a `kind` ('ray' on the specimen, or the 'tip'), and answers it. */
async function pointerOf(page: Page, kind: Pointer['kind']): Promise<Pointer> {
  try {
    const handle = await page.waitForFunction((k) => (window.vitrineVr!.state().pointer?.kind === k ? window.vitrineVr!.state().pointer : null), kind, {
      timeout: STATE_WAIT_MS,
    });
    return (await handle.jsonValue()) as Pointer;
  } catch (error) {
    const actual = await page.evaluate(() => window.vitrineVr!.state().pointer);
    throw new Error(`the panel never said the ${kind} (it says ${JSON.stringify(actual)}): ${(error as Error).message}`);
  }
}

/** Moves the left controller low and aside (its ray then meets nothing). */
async function leftAside(page: Page): Promise<void> {
  await page.evaluate(() => {
    type Pose = { position: { set(...a: number[]): void } };
    (window as unknown as { xrDevice: { controllers: { left: Pose } } }).xrDevice.controllers.left.position.set(-0.4, 0.3, 0.2);
  });
}

describe('scale bar and coordinates in VR (IWER, emulated Quest 3)', () => {
  it('stands a round bar by the specimen and reads the ray’s voxel and the tip in mm', async () => {
    const put = await fetch(`${session.host.baseUrl}/api/specimens/vr-scaled-scan?filename=scan.npy&spacing=0.5,0.25,0.25&origin=1,2,3&unit=mm`, {
      method: 'PUT', headers: { 'content-type': 'application/octet-stream' }, body: new Uint8Array(npyBytes([4, 10, 10])),
    });
    expect(put.status).toBe(201);
    const url = `${session.host.baseUrl}/${viewerQuery({ specimen: 'vr-scaled-scan', room: freshRoom('vr-scale'), follow: true })}`;
    const { page, errors } = await openHeadsetPage(session.browser, session.contexts, url);
    await page.waitForFunction(() => document.querySelector('[data-testid=scale-bar-label]')?.textContent?.endsWith(' mm'), null, { timeout: STATE_WAIT_MS });

    await page.getByRole('button', { name: 'Enter VR' }).click();
    await page.waitForFunction(() => window.vitrineVr?.state().presenting === true && window.vitrineVr.state().firstSpecimenFrameMs !== null, null, {
      timeout: STATE_WAIT_MS,
    });
    await framesPass(page, 5);
    // The page's own bar steps aside while the headset shows its own.
    expect(await page.locator('[data-testid=scale-bar]').isHidden()).toBe(true);

    const { scale, scaleBar } = await page.evaluate(() => window.vitrineVr!.state());
    expect(scaleBar).not.toBeNull();
    const { label, length, metres, visible } = scaleBar!;
    expect(visible).toBe(true);
    const mantissa = length / 10 ** Math.floor(Math.log10(length) + 1e-9);
    expect([1, 2, 5].some((m) => Math.abs(mantissa - m) < 1e-9), `${length} is round`).toBe(true);
    expect(label).toBe(`${length} mm`);
    expect(metres).toBeCloseTo(length * scale, 9);
    expect(metres).toBeLessThanOrEqual(0.2);
    expect(metres).toBeGreaterThanOrEqual(0.08);

    // The left hand low and out of the way; the right one's ray straight down -z through voxel column (7, 2): it meets the z slice.
    await leftAside(page);
    const [at, from] = await page.evaluate(() => [window.vitrineVr!.inRoom([4.75, 2.5, 1]), window.vitrineVr!.inRoom([4.75, 2.5, 40])]);
    await aimAt(page, from as Vec, at as Vec);
    const ray = await pointerOf(page, 'ray');
    const z = (ray.position[2] - 1) / 0.5;
    expect(Math.abs(z - Math.round(z))).toBeLessThan(1e-6);
    expect(ray.position.slice(0, 2)).toEqual([4.75, 2.5]);
    expect(ray.unit).toBe('mm');
    expect(ray.text).toBe(`Ray at x 4.75, y 2.5, z ${ray.position[2]} mm`);
    await shot(page, 'vr-scale-ray');

    // Pointed up, away from everything: the tip, in the scan's frame, is where the controller is.
    const tipAt: Vec = [0.3, 1.2, -0.2];
    await aimAt(page, tipAt, [0.3, 3, -0.2]);
    const tip = await pointerOf(page, 'tip');
    const back = await page.evaluate((p) => window.vitrineVr!.inRoom(p), tip.position);
    back.forEach((v, i) => expect(v).toBeCloseTo(tipAt[i]!, 3));
    expect(tip.text).toMatch(/^Tip at x -?[\d.e+-]+, y -?[\d.e+-]+, z -?[\d.e+-]+ mm$/);

    // The headset looks down a little, so the picture shows the bar in front of the specimen's lower edge.
    await page.evaluate(() => {
      type Pose = { quaternion: { set(...a: number[]): void } };
      (window as unknown as { xrDevice: Pose }).xrDevice.quaternion.set(-0.2588, 0, 0, 0.9659);
    });
    await framesPass(page, 5);
    await shot(page, 'vr-scale-bar');
    expect(errors).toEqual([]);
  });
});
