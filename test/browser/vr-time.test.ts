/**
 * Time on the VR panel, in Debian's Chromium with Meta's IWER emulating a Quest 3: a room whose
 * layer is a time-lapse of two channels (8 steps); the headset page and a desktop page both
 * follow the room. On the panel's time row the controller's trigger steps forward, seeks on the
 * bar, and plays and pauses; the room's layer takes each and the desktop page shows the same
 * step and plays along. A step taken on the desktop page moves the headset's readout. Screenshots
 * of the emulated session land in os.tmpdir()/vitrine-browser-shots.
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import type { RoomScene } from '../../core/wire/scene-types.ts';
import { room as freshRoom, viewerQuery } from '../helpers/room.ts';
import { STATE_WAIT_MS } from '../helpers/wait-for.ts';
import { browserAndHost } from './browser-host.ts';
import { DRAW_SCALE, openHeadsetPage as openHeadset, openPage, shot, type OpenedPage } from './browser-session.ts';
import { framesPass, pullTriggerAt, stillPoint, type Vec } from './vr-controller.ts';

const session = browserAndHost([], DRAW_SCALE);
const STEPS = 8;
const CONTROLS = '[data-testid=time-controls]';
/** Where the controller stands to aim at the panel: right of the user, at waist height. */
const HAND: Vec = [0.15, 1.1, -0.1];

async function api<T>(method: string, path: string, body?: unknown): Promise<T> {
  const headers: Record<string, string> = body === undefined ? {} : { 'content-type': 'application/json' };
  const response = await fetch(`${session.host.baseUrl}${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${await response.text()}`);
  return (response.status === 204 ? null : await response.json()) as T;
}

/** A page with IWER's emulated Quest 3 installed before its scripts run. */
const openHeadsetPage = (url: string): Promise<OpenedPage> => openHeadset(session.browser, session.contexts, url);

/** Waits until the page's time controls hold `want` (`shownT`, `playing`). */
async function timeControls(page: Page, want: Record<string, string>): Promise<void> {
  try {
    await page.waitForFunction(
      ([sel, wanted]) => {
        const data = document.querySelector<HTMLElement>(sel)?.dataset;
        return data !== undefined && Object.entries(wanted).every(([key, value]) => data[key] === value);
      },
      [CONTROLS, want] as const,
      { timeout: STATE_WAIT_MS },
    );
  } catch (error) {
    const actual = await page.evaluate((sel) => ({ ...document.querySelector<HTMLElement>(sel)?.dataset }), CONTROLS);
    throw new Error(`the time controls never held ${JSON.stringify(want)} (they hold ${JSON.stringify(actual)}): ${(error as Error).message}`);
  }
}

/** Waits until the headset panel's time readout reads `text`. */
async function readout(page: Page, text: string): Promise<void> {
  try {
    await page.waitForFunction((want) => window.vitrineVr?.state().timeReadout === want, text, { timeout: STATE_WAIT_MS });
  } catch (error) {
    const actual = await page.evaluate(() => window.vitrineVr?.state().timeReadout);
    throw new Error(`the VR readout never read '${text}' (it reads ${JSON.stringify(actual)}): ${(error as Error).message}`);
  }
}

/** Pulls the trigger on a control of the panel's time row (`fraction` along the bar), once the control stands still. */
async function pressTime(page: Page, control: 'back' | 'play' | 'forward' | 'bar', fraction?: number): Promise<void> {
  const where = () => page.evaluate(([c, f]) => window.vitrineVr!.timePoint(c!, f), [control, fraction] as const);
  await pullTriggerAt(page, HAND, await stillPoint(page, where, `the time row's ${control}`));
}

/** The room's layer's shared time. */
async function roomTime(room: string): Promise<{ t?: number; playing?: number }> {
  const scene = await api<RoomScene>('GET', `/api/rooms/${room}/scene`);
  return { t: scene.layers[0]!.t, playing: scene.layers[0]!.playing };
}

/** Moves both controllers low and off the panel (screenshots then show the panel's buttons). */
async function holdAside(page: Page): Promise<void> {
  await page.evaluate(() => {
    type Pose = { position: { set(...a: number[]): void } };
    const { left, right } = (window as unknown as { xrDevice: { controllers: { left: Pose; right: Pose } } }).xrDevice.controllers;
    left.position.set(-0.05, 0.7, -0.25);
    right.position.set(0.35, 0.8, -0.3);
  });
  await framesPass(page, 5);
}

describe('time on the VR panel (IWER, emulated Quest 3)', () => {
  it('steps, seeks and plays from the panel; a following page shows the same step, and its step reaches the panel', async () => {
    const room = freshRoom('vr-time');
    await api('PUT', `/api/rooms/${room}/scene`, {
      layers: [{ id: 'balls', source: { specimen: 'two-channels', params: { size: 16, steps: STEPS } } }],
      active: 'balls',
    });
    const link = `${session.host.baseUrl}/${viewerQuery({ room, follow: true })}`;
    const vr = await openHeadsetPage(link);
    const desk = await openPage(session.browser, session.contexts, link);
    await Promise.all([timeControls(vr.page, { shownT: '0' }), timeControls(desk.page, { shownT: '0' })]);

    await vr.page.getByRole('button', { name: 'Enter VR' }).click();
    await vr.page.waitForFunction(() => window.vitrineVr?.state().presenting === true && window.vitrineVr.state().firstSpecimenFrameMs !== null, null, {
      timeout: STATE_WAIT_MS,
    });
    await readout(vr.page, `t 0 / ${STEPS - 1}`);

    // Next step on the panel: the page's controls, the room and the following page all go to step 1.
    await pressTime(vr.page, 'forward');
    await readout(vr.page, `t 1 / ${STEPS - 1}`);
    await timeControls(vr.page, { shownT: '1' });
    await timeControls(desk.page, { shownT: '1' });
    await expect.poll(() => roomTime(room), { timeout: STATE_WAIT_MS }).toMatchObject({ t: 1 });
    await holdAside(vr.page);
    await shot(vr.page, 'vr-time-step-1');

    // A seek on the bar, near its right end: step 6 of 0..7.
    await pressTime(vr.page, 'bar', 6 / (STEPS - 1));
    await readout(vr.page, `t 6 / ${STEPS - 1}`);
    await timeControls(desk.page, { shownT: '6' });
    await expect.poll(() => roomTime(room), { timeout: STATE_WAIT_MS }).toMatchObject({ t: 6 });

    // A step back on the desktop page: the headset follows the room and its readout says so.
    await desk.page.locator(`${CONTROLS} [data-control=step-back]`).click();
    await timeControls(desk.page, { shownT: '5' });
    await readout(vr.page, `t 5 / ${STEPS - 1}`);
    await holdAside(vr.page);
    await shot(vr.page, 'vr-time-from-desk');

    // Play on the panel: the room plays at the page's rate and the following page plays along.
    await pressTime(vr.page, 'play');
    await timeControls(vr.page, { playing: '4' });
    await timeControls(desk.page, { playing: '4' });
    await expect.poll(() => roomTime(room), { timeout: STATE_WAIT_MS }).toMatchObject({ playing: 4 });
    await holdAside(vr.page);
    await shot(vr.page, 'vr-time-playing');
    // Playing on from step 5, it wraps round to step 0 on both pages.
    await Promise.all([readout(vr.page, `t 0 / ${STEPS - 1}`), timeControls(desk.page, { shownT: '0' })]);

    // Pause on the panel: both stop on the headset's step, which the room keeps.
    await pressTime(vr.page, 'play');
    await timeControls(vr.page, { playing: '0' });
    const stopped = await vr.page.locator(CONTROLS).getAttribute('data-shown-t');
    await readout(vr.page, `t ${stopped} / ${STEPS - 1}`);
    await timeControls(desk.page, { playing: '0', shownT: stopped! });
    await expect.poll(() => roomTime(room), { timeout: STATE_WAIT_MS }).toMatchObject({ t: Number(stopped), playing: 0 });
    await holdAside(vr.page);
    await shot(vr.page, 'vr-time-paused');
    await shot(desk.page, 'vr-time-desktop');
    expect([...vr.errors, ...desk.errors]).toEqual([]);
  });
});
