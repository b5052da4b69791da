/**
 * The viewer in VR, in Debian's Chromium with Meta's IWER emulating a Quest 3 (injected into
 * the page before its scripts run): "Enter VR" opens an immersive session whose frames show the
 * specimen on the table, the mesh is asked for with the triangle budget (and arrives simplified
 * to it while the room's peers get it whole), the emulated
 * controller's ray moves a slider of the VR panel and the new values go out as the page's own
 * request, and a desktop page following the same room follows it; with Follow room switched on
 * from the panel, a peer's computation shows "A peer is computing…" in the headset and its
 * result replaces the specimen. Leaving the session returns to the page. Screenshots of the emulated session land in os.tmpdir()/vitrine-browser-shots.
 */
import type { Browser, Page, Request } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHost, type HostProcess } from '../client/host-process.ts';
import { room as freshRoom, viewerQuery } from '../helpers/room.ts';
import { waitFor } from '../helpers/wait-for.ts';
import { DRAW_SCALE, installEmulatedHeadset, shot, viewportFor, waitForState, waitForText } from './browser-session.ts';
import { fileBrowser } from './fork-browser.ts';
import { framesPass, pullTriggerAt, type Vec } from './vr-controller.ts';
import { STATE_WAIT_MS } from '../helpers/wait-for.ts';

let host: HostProcess;
let browser: Browser;

beforeAll(async () => {
  [host, browser] = await Promise.all([startHost(), fileBrowser(DRAW_SCALE)]);
});

// Closing the browser closes every context the cases opened.
afterAll(() => Promise.all([browser?.close(), host?.close()]));

const JOB = '[data-testid=job-state]';
const SEGMENTS = '[data-param=segments] input[type=number]';
const TRIANGLES = '[data-testid=stats] [data-stat=triangles] dd';

interface Opened {
  page: Page;
  requests: Request[];
  errors: string[];
}

/** The desk page the first test opened: the second loads its URL there. */
let deskTab: Page | undefined;

/**
 * A page in a context of its own; `headset`: with IWER's emulated Quest 3 installed first.
 * `reuse`, a desk page still open, loads the query instead (a new document, as a new window
 * would load it), which spares Chromium a renderer and a cold start of the viewer.
 */
async function openPage(query: string, headset: boolean, reuse?: Page): Promise<Opened> {
  const page = reuse && !reuse.isClosed() ? reuse : await (await browser.newContext(viewportFor(headset))).newPage();
  if (headset) {
    await installEmulatedHeadset(page);
  }
  const requests: Request[] = [];
  const errors: string[] = [];
  page.on('request', (r) => requests.push(r));
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto(`${host.baseUrl}/${query}`);
  return { page, requests, errors };
}

interface ProbeState {
  presenting: boolean;
  firstSpecimenFrameMs: number | null;
  frames: number;
  scale: number;
  position: Vec;
}

const probe = (page: Page): Promise<ProbeState> => page.evaluate(() => window.vitrineVr!.state());

const dataRequests = (requests: Request[], room: string): URL[] =>
  requests.map((r) => new URL(r.url())).filter((u) => u.pathname === '/api/specimens/shape/data' && u.searchParams.get('room_id') === room);

describe('the viewer in VR (IWER, emulated Quest 3)', () => {
  it('enters VR, shows the specimen, moves a slider with the controller, and a following desktop page follows', async () => {
    const room = freshRoom('vr');
    const query = (extra: Record<string, string>) => viewerQuery({ specimen: 'shape', room, params: { segments: 8 }, extra });
    const vr = await openPage(query({ xr_triangles: '1000' }), true);
    expect(await waitForState(vr.page, JOB, ['done', 'cached'])).toMatch(/done|cached/);
    // Before the session the page asks without the headset budget (its coarse first view asks for 20,000 triangles at most).
    expect(dataRequests(vr.requests, room).every((u) => [null, '20000'].includes(u.searchParams.get('max_triangles')))).toBe(true);

    const enter = vr.page.getByRole('button', { name: 'Enter VR' });
    await enter.click();
    await vr.page.waitForFunction(() => window.vitrineVr?.state().presenting === true && window.vitrineVr.state().firstSpecimenFrameMs !== null, null, {
      timeout: STATE_WAIT_MS,
    });
    await framesPass(vr.page, 5);
    const state = await probe(vr.page);
    // The wobbly sphere (about 2.1 m across) is too big for a table: scaled to 60 cm, a metre in front.
    expect(state.scale).toBeGreaterThan(0.27);
    expect(state.scale).toBeLessThan(0.3);
    expect(state.position[2]).toBeCloseTo(-1, 1);
    // Entering asked for the mesh again with the triangle budget of the URL.
    await vr.page.waitForFunction(() => document.querySelector<HTMLElement>('[data-testid=job-state]')?.dataset.state === 'cached');
    expect(dataRequests(vr.requests, room).some((u) => u.searchParams.get('max_triangles') === '1000')).toBe(true);
    await shot(vr.page, 'vr-entered');

    const desk = await openPage(query({ follow: '1' }), false);
    deskTab = desk.page;
    await desk.page.waitForSelector('.follow[data-stream=open]');

    // The controller's ray on the segments slider at three quarters: 3 + 0.75 × 61 ≈ 49.
    const target = await vr.page.evaluate(() => window.vitrineVr!.sliderPoint('segments', 0.75));
    expect(target).not.toBeNull();
    const before = dataRequests(vr.requests, room).length;
    await pullTriggerAt(vr.page, [0.15, 1.1, -0.1], target!);
    await vr.page.waitForFunction(() => document.querySelector<HTMLInputElement>('[data-param=segments] input[type=number]')?.value === '49', null, {
      timeout: STATE_WAIT_MS,
    });
    // The panel shows 49 at once; its request leaves after the drag debounce.
    const segmentsSent = () => dataRequests(vr.requests, room).slice(before).map((u) => JSON.parse(u.searchParams.get('params') ?? '{}').segments);
    await expect.poll(segmentsSent, { timeout: STATE_WAIT_MS }).toContain(49);
    const sent = dataRequests(vr.requests, room).slice(before);
    expect(sent.every((u) => u.searchParams.get('max_triangles') === '1000')).toBe(true);
    await desk.page.waitForFunction((sel) => document.querySelector<HTMLInputElement>(sel)?.value === '49', SEGMENTS, { timeout: STATE_WAIT_MS });
    // 2 × 49² = 4,802 triangles in the room; the headset got them simplified to its budget of 1,000.
    await waitForText(desk.page, TRIANGLES, '4,802');
    await vr.page.waitForFunction((sel) => {
      const shown = Number(document.querySelector(sel)?.textContent?.replace(/,/g, '') ?? NaN);
      return shown > 0 && shown <= 1000;
    }, TRIANGLES, { timeout: STATE_WAIT_MS });
    await framesPass(vr.page, 5);
    await shot(vr.page, 'vr-slider-moved');
    await shot(desk.page, 'vr-desktop-follower');

    // Follow room from the panel: a peer's computation shows in the headset, then its result.
    const follow = await vr.page.evaluate(() => window.vitrineVr!.buttonPoint('follow'));
    await pullTriggerAt(vr.page, [0.15, 1.1, -0.1], follow!);
    await vr.page.waitForSelector('.follow[data-stream=open]');
    await desk.page.goto(`${host.baseUrl}/${viewerQuery({ specimen: 'slow-sphere', room, params: { steps: 12, step_ms: 150 } })}`);
    await vr.page.waitForFunction(() => window.vitrineVr!.state().status === 'A peer is computing…', null, { timeout: STATE_WAIT_MS });
    await vr.page.waitForFunction(() => new URLSearchParams(window.location.search).get('specimen') === 'slow-sphere', null, { timeout: STATE_WAIT_MS });
    // Its result comes from the room cache, asked for with the triangle budget.
    const adopted = () => vr.requests.map((r) => new URL(r.url())).filter((u) => u.pathname === '/api/specimens/slow-sphere/data');
    await waitFor(() => adopted().length > 0 || undefined, 'the headset asking for the peer\'s specimen');
    expect(adopted().map((u) => u.searchParams.get('max_triangles'))).toContain('1000');
    await vr.page.waitForFunction(() => document.querySelector<HTMLElement>('[data-testid=job-state]')?.dataset.state === 'cached', null, {
      timeout: STATE_WAIT_MS,
    });
    await framesPass(vr.page, 5);
    await shot(vr.page, 'vr-following-peer');

    // "Exit VR" on the panel leaves the session: back to the page, which asks again without the budget.
    const exitAt = vr.requests.length;
    const exit = await vr.page.evaluate(() => window.vitrineVr!.buttonPoint('exit'));
    await pullTriggerAt(vr.page, [0.15, 1.1, -0.1], exit!, false);
    await vr.page.waitForFunction(() => window.vitrineVr?.state().presenting === false);
    await vr.page.getByRole('button', { name: 'Enter VR' }).waitFor();
    await vr.page.waitForFunction(() => document.querySelector<HTMLElement>('[data-testid=job-state]')?.dataset.state === 'cached');
    const after = vr.requests.slice(exitAt).map((r) => new URL(r.url())).filter((u) => u.pathname === '/api/specimens/slow-sphere/data');
    expect(after.length).toBeGreaterThan(0);
    expect(after.every((u) => [null, '20000'].includes(u.searchParams.get('max_triangles')))).toBe(true);
    expect((await probe(vr.page)).position).toEqual([0, 0, 0]);
    // Offline: every request (viewer, panel font, controller models) went to the host.
    const elsewhere = vr.requests.map((r) => r.url()).filter((url) => !url.startsWith(host.baseUrl) && !url.startsWith('data:') && !url.startsWith('blob:'));
    expect(elsewhere).toEqual([]);
    expect(vr.requests.some((r) => new URL(r.url()).pathname.startsWith('/viewer/xr-profiles/'))).toBe(true);
    expect(vr.errors).toEqual([]);
    expect(desk.errors).toEqual([]);
  });

  it('shows no "Enter VR" button where the browser has no immersive VR', async () => {
    const desk = await openPage('?specimen=shape', false, deskTab);
    await waitForState(desk.page, JOB, ['done', 'cached']);
    await desk.page.waitForSelector('[data-testid=enter-vr]', { state: 'attached' });
    expect(await desk.page.getByRole('button', { name: 'Enter VR' }).count()).toBe(0);
  });
});
