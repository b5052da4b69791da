/**
 * @module vr-controller
 * The emulated headset's right controller (IWER's `window.xrDevice`): waiting for session
 * frames, aiming at a point, and pulling the trigger there, as a user in the headset would;
 * and a panel control's place once it has stopped moving.
 */
import type { Page } from 'playwright-core';
import { STATE_WAIT_MS, waitFor } from '../helpers/wait-for.ts';

export type Vec = [number, number, number];

/** Waits until the session has drawn `count` more frames. */
export async function framesPass(page: Page, count: number): Promise<void> {
  const from = await page.evaluate(() => window.vitrineVr!.state().frames);
  await page.waitForFunction(([n]) => window.vitrineVr!.state().frames >= n!, [from + count] as const, { timeout: STATE_WAIT_MS });
}

/** A quaternion turning -z onto the unit vector `d`. */
function aim(d: Vec): [number, number, number, number] {
  const [x, y, z] = d;
  const q: [number, number, number, number] = [y, -x, 0, 1 - z];
  const n = Math.hypot(...q);
  return q.map((v) => v / n) as [number, number, number, number];
}

/** Holds the right controller at `from`, pointing at `at`, for a few frames. */
export async function aimAt(page: Page, from: Vec, at: Vec): Promise<void> {
  const d = at.map((v, i) => v - from[i]!) as Vec;
  const len = Math.hypot(...d);
  const q = aim(d.map((v) => v / len) as Vec);
  await page.evaluate(
    ([p, r]) => {
      const right = (
        window as unknown as { xrDevice: { controllers: { right: { position: { set(...a: number[]): void }; quaternion: { set(...a: number[]): void } } } } }
      ).xrDevice.controllers.right;
      right.position.set(...p!);
      right.quaternion.set(...r!);
    },
    [from, q] as const,
  );
  await framesPass(page, 3);
}

/** Points the right controller from `from` at `at` and pulls the trigger for a few frames (`after`: frames go on once it is let go). */
export async function pullTriggerAt(page: Page, from: Vec, at: Vec, after = true): Promise<void> {
  await aimAt(page, from, at);
  const press = (value: number) =>
    page.evaluate(
      (v) =>
        (
          window as unknown as { xrDevice: { controllers: { right: { updateButtonValue(id: string, v: number): void } } } }
        ).xrDevice.controllers.right.updateButtonValue('trigger', v),
      value,
    );
  await press(1);
  await framesPass(page, 3);
  await press(0);
  if (after) await framesPass(page, 3);
}

/**
 * Where a panel control is (`where`, in room metres) once it stands still over a few frames:
 * the panel lays itself out over frames after a row appears or changes, and a loaded machine
 * draws them slowly, so a point read too early is not where the control ends up.
 */
export async function stillPoint(page: Page, where: () => Promise<Vec | null>, what: string): Promise<Vec> {
  let last = await where();
  return waitFor(async () => {
    await framesPass(page, 3);
    const now = await where();
    const still = now !== null && last !== null && now.every((v, i) => Math.abs(v - last![i]!) < 1e-6);
    last = now;
    return still ? now : undefined;
  }, `${what} standing still`);
}

/**
 * Presses a panel control as a user in the headset does: points at it, waits until it stands
 * still (the panel's readout of where the controller points changes as the controller moves,
 * and a row that changes may move the controls), pulls the trigger there, and pulls again (up
 * to `pulls` times in all) when `taken` says the press did not land. A press lands
 * synchronously, so `taken` is read once the trigger is let go. A press that missed is reported
 * with where the control was aimed at and where it is now, so a panel that moved under the ray
 * shows in the log; one that never takes a press still fails.
 */
export async function pressPanel(
  page: Page,
  where: () => Promise<Vec | null>,
  taken: () => Promise<boolean>,
  what: string,
  pulls = 3,
): Promise<void> {
  for (let pull = 1; pull <= pulls; pull++) {
    const from: Vec = [0.15, 1.1, -0.1];
    const first = await where();
    if (first) await aimAt(page, from, first);
    const at = await stillPoint(page, where, what);
    await pullTriggerAt(page, from, at);
    if (await taken()) return;
    const pointer = await page.evaluate(() => window.vitrineVr!.state().pointer);
    const now = JSON.stringify(await where());
    console.warn(`pull ${pull} on ${what} did not land: aimed at ${JSON.stringify(at)}, it is now at ${now}; pointer ${JSON.stringify(pointer)}`);
  }
  throw new Error(`${pulls} pulls of the trigger on ${what} did not land`);
}

/** Peer `id`'s ray as `page` draws it (the page's presence probe), as JSON: `null` when it draws none. */
function rayDrawn(page: Page, id: string): Promise<string> {
  return page.evaluate((peer) => JSON.stringify(window.vitrinePresence!.state().peers.find((p) => p.id === peer)?.pointer ?? null), id);
}

/**
 * Peer `id`'s ray as each of `pages` draws it (JSON, `null` for none) once its controller is
 * parked where it was parked before. The first time (`parked` null), the rays are read after a
 * while given to the pose to reach the pages; every later time, each page is waited for until
 * it draws the ray as it did then, and two frames after.
 */
export async function raysParked(pages: Page[], id: string, parked: string[] | null): Promise<string[]> {
  if (parked === null) {
    await pages[0]!.waitForTimeout(1500);
    return Promise.all(pages.map((page) => rayDrawn(page, id)));
  }
  await Promise.all(
    pages.map(async (page, k) => {
      await page.waitForFunction(
        ([peer, want]) => JSON.stringify(window.vitrinePresence!.state().peers.find((p) => p.id === peer)?.pointer ?? null) === want,
        [id, parked[k]!] as const,
        { timeout: STATE_WAIT_MS },
      );
      await page.evaluate(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))));
    }),
  );
  return parked;
}
