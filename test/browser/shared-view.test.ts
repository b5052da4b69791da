/**
 * The shared view in the web viewer: two pages following one room. A window change on the
 * first appears on the second and does not bounce back (the second sends no view of its
 * own, the first keeps what its user set); a change on the second comes to the first; a camera
 * moved on the first is where the second's camera goes; a third page that joins later gets the
 * room's view (camera included) on connect. In VR (IWER's emulated Quest 3) the
 * panel's look buttons share the colour map and the volume view, and the room's window reaches
 * the headset. Screenshots land in
 * os.tmpdir()/vitrine-browser-shots.
 */
import type { Page, Request } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { room as freshRoom, viewerQuery } from '../helpers/room.ts';
import { waitFor } from '../helpers/wait-for.ts';
import { DRAW_SCALE, installEmulatedHeadset, shot, viewportFor, waitForState } from './browser-session.ts';
import { framesPass, pressPanel } from './vr-controller.ts';
import { STATE_WAIT_MS } from '../helpers/wait-for.ts';
import { browserAndHost } from './browser-host.ts';

const session = browserAndHost([], DRAW_SCALE);

const BAR = '[data-testid=colour-bar]';

/** A following page in a context of its own, with the view changes it sent. */
async function openPage(query: string, headset = false): Promise<{ page: Page; viewPuts: Request[]; errors: string[] }> {
  const context = await session.browser.newContext(viewportFor(headset));
  session.contexts.push(context);
  const page = await context.newPage();
  if (headset) await installEmulatedHeadset(page);
  const viewPuts: Request[] = [];
  const errors: string[] = [];
  page.on('request', (r) => {
    if (r.method() === 'PUT' && new URL(r.url()).pathname.endsWith('/view')) viewPuts.push(r);
  });
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto(`${session.host.baseUrl}/${query}`);
  await page.waitForSelector('.follow[data-stream=open]');
  return { page, viewPuts, errors };
}

/** The window and colour map the page's colour bar shows. */
async function barOf(page: Page): Promise<{ low: number; high: number; map: string }> {
  await page.waitForSelector(BAR);
  return page.evaluate((sel) => {
    const bar = document.querySelector<HTMLElement>(sel)!;
    return { low: Number(bar.dataset.low), high: Number(bar.dataset.high), map: bar.querySelector('select')!.value };
  }, BAR);
}

/** Waits until the page's colour bar shows `want`. */
async function waitForBar(page: Page, want: { low?: number; high?: number; map?: string }): Promise<void> {
  try {
    await page.waitForFunction(
      ([sel, w]) => {
        const bar = document.querySelector<HTMLElement>(sel);
        if (!bar) return false;
        const close = (a: number, b: number | undefined) => b === undefined || Math.abs(a - b) <= 1e-9 * Math.max(1, Math.abs(b));
        return (
          close(Number(bar.dataset.low), w.low) &&
          close(Number(bar.dataset.high), w.high) &&
          (w.map === undefined || bar.querySelector('select')!.value === w.map)
        );
      },
      [BAR, want] as const,
      { timeout: STATE_WAIT_MS },
    );
  } catch (error) {
    throw new Error(`the colour bar never showed ${JSON.stringify(want)} (it shows ${JSON.stringify(await barOf(page))}): ${(error as Error).message}`);
  }
}

/** Drags the window-width slider to `value` (of 1000 steps), as a user would in one go. */
async function setWidth(page: Page, value: number): Promise<void> {
  await page.evaluate((v) => {
    const input = document.querySelector<HTMLInputElement>('[data-testid=width]')!;
    input.value = String(v);
    input.dispatchEvent(new Event('input', { bubbles: true }));
  }, value);
}

describe('shared view', () => {
  it('a window change on one following page shows on the other, without echo; a late joiner gets the view', async () => {
    const room = freshRoom('view');
    const link = viewerQuery({ specimen: 'density', room, params: { size: 24 }, follow: true });
    const first = await openPage(link);
    const second = await openPage(link);
    for (const p of [first, second]) await waitForState(p.page, '[data-testid=job-state]', ['done', 'cached']);
    const opening = await barOf(second.page);

    await setWidth(first.page, 300);
    const set = await barOf(first.page);
    expect(set.high - set.low).not.toBeCloseTo(opening.high - opening.low, 6);
    await waitForBar(second.page, { low: set.low, high: set.high });

    // A colour map chosen on the second page comes to the first: the events of one room stay
    // in order, so by then any bounce of the window would have arrived too.
    await second.page.selectOption('[data-testid=colour-map]', 'magma');
    await waitForBar(first.page, { low: set.low, high: set.high, map: 'magma' });
    expect(await barOf(first.page)).toEqual({ ...set, map: 'magma' });
    await waitFor(() => (first.viewPuts.length > 0 && second.viewPuts.length > 0) || undefined, 'both pages\' view requests being reported');
    expect(first.viewPuts.map((r) => r.postDataJSON())).toEqual([{ window: [set.low, set.high] }]);
    expect(second.viewPuts.map((r) => r.postDataJSON())).toEqual([{ colormap: 'magma' }]);
    first.viewPuts.length = 0;
    const stored = (await (await fetch(`${session.host.baseUrl}/api/rooms/${room}/view`)).json()) as Record<string, unknown>;
    expect(stored).toMatchObject({ window: [set.low, set.high], colormap: 'magma' });

    // The camera: a drag on the first page moves the second's camera there, and only once.
    const canvas = first.page.locator('canvas.stage-canvas');
    const box = (await canvas.boundingBox())!;
    await first.page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    await first.page.mouse.down();
    await first.page.mouse.move(box.x + box.width / 2 + 120, box.y + box.height / 2 + 40, { steps: 6 });
    await first.page.mouse.up();
    const cameraPut = async () => first.viewPuts.map((r) => r.postDataJSON() as { camera?: unknown }).filter((v) => v.camera).at(-1)?.camera;
    await waitFor(async () => (await cameraPut()) ?? undefined, 'the first page sharing its camera');
    // The glide after the drag may send a later camera too: the second ends where the first's last share put it.
    await waitFor(async () => {
      const shared = await (await fetch(`${session.host.baseUrl}/api/rooms/${room}/view`)).json() as { camera?: unknown };
      const applied = await second.page.evaluate(() => document.querySelector<HTMLElement>('canvas.stage-canvas')?.dataset.roomCamera ?? null);
      return applied !== null &&
        JSON.stringify(JSON.parse(applied)) === JSON.stringify(shared.camera) &&
        JSON.stringify(shared.camera) === JSON.stringify(await cameraPut())
        ? true
        : undefined;
    }, 'the second page applying the shared camera');
    expect(second.viewPuts.filter((r) => (r.postDataJSON() as { camera?: unknown }).camera)).toEqual([]);

    // A third page joins later, naming only the room: it shows the room's entry with its view.
    const third = await openPage(viewerQuery({ room, follow: true }));
    await waitForBar(third.page, { low: set.low, high: set.high, map: 'magma' });
    const { camera } = (await (await fetch(`${session.host.baseUrl}/api/rooms/${room}/view`)).json()) as { camera?: unknown };
    await third.page.waitForFunction(
      (want) => document.querySelector<HTMLElement>('canvas.stage-canvas')?.dataset.roomCamera === want,
      JSON.stringify(camera),
      { timeout: STATE_WAIT_MS },
    );
    expect(third.viewPuts).toEqual([]);
    await shot(third.page, 'shared-view-late-joiner');
    for (const p of [first, second, third]) expect(p.errors).toEqual([]);
  });

  it('in VR, the panel shares the colour map and the view; the room\'s window reaches the headset', async () => {
    const room = freshRoom('vr-view');
    const link = viewerQuery({ specimen: 'density', room, params: { size: 24 }, follow: true });
    const desk = await openPage(link);
    const vr = await openPage(link, true);
    for (const p of [desk, vr]) await waitForState(p.page, '[data-testid=job-state]', ['done', 'cached']);
    await vr.page.getByRole('button', { name: 'Enter VR' }).click();
    await vr.page.waitForFunction(() => window.vitrineVr?.state().presenting === true && window.vitrineVr.state().firstSpecimenFrameMs !== null, null, {
      timeout: STATE_WAIT_MS,
    });
    await framesPass(vr.page, 3);

    const before = await barOf(desk.page);
    expect(await vr.page.evaluate(() => window.vitrineVr!.buttonPoint('colormap'))).not.toBeNull();
    // The pull is a click on the panel's button: the page applies it on one of its next frames.
    // The panel lays itself out again as rows change, so the press is aimed once the button stands still.
    await pressPanel(
      vr.page,
      () => vr.page.evaluate(() => window.vitrineVr!.buttonPoint('colormap')),
      async () => {
        await framesPass(vr.page, 3);
        return (await barOf(vr.page)).map !== before.map;
      },
      'the colour map button',
    );
    const chosen = await waitFor(async () => {
      const { map } = await barOf(vr.page);
      return map !== before.map ? map : undefined;
    }, 'the colour map the panel picked');
    await waitForBar(desk.page, { map: chosen });

    const vrView = () => vr.page.evaluate(() => document.querySelector<HTMLSelectElement>('select[data-axis=view]')?.value);
    await pressPanel(
      vr.page,
      () => vr.page.evaluate(() => window.vitrineVr!.buttonPoint('mode')),
      async () => {
        await framesPass(vr.page, 3);
        return (await vrView()) === 'volume';
      },
      'the view button',
    );
    await desk.page.waitForFunction(() => document.querySelector<HTMLSelectElement>('select[data-axis=view]')?.value === 'volume', null, {
      timeout: STATE_WAIT_MS,
    });

    await setWidth(desk.page, 200);
    const set = await barOf(desk.page);
    await waitForBar(vr.page, { low: set.low, high: set.high, map: chosen });
    await framesPass(vr.page, 3);
    await shot(vr.page, 'shared-view-vr');
    expect(vr.viewPuts.map((r) => Object.keys(r.postDataJSON() as object))).toEqual([['colormap'], ['mode']]);
    for (const p of [desk, vr]) expect(p.errors).toEqual([]);
  });

  it('a point cloud coloured by its scalars takes the room\'s window and colour map, and shares its own', async () => {
    const room = freshRoom('points');
    const page = await openPage(viewerQuery({ specimen: 'galaxy', room, params: { count: 500, colored: false }, follow: true }));
    await waitForState(page.page, '[data-testid=job-state]', ['done', 'cached']);
    const put = await fetch(`${session.host.baseUrl}/api/rooms/${room}/view`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ window: [0.1, 0.4], colormap: 'ice' }),
    });
    expect(put.status).toBe(200);
    await waitForBar(page.page, { low: 0.1, high: 0.4, map: 'ice' });
    await page.page.selectOption('[data-testid=colour-map]', 'gray');
    await waitFor(async () => {
      const view = (await (await fetch(`${session.host.baseUrl}/api/rooms/${room}/view`)).json()) as { colormap?: string };
      return view.colormap === 'gray' || undefined;
    }, 'the page sharing its colour map');
    // The browser reports its request to the test on its own schedule: wait for that too.
    await waitFor(() => page.viewPuts.length > 0 || undefined, 'the page\'s view request being reported');
    expect(page.viewPuts.map((r) => r.postDataJSON())).toEqual([{ colormap: 'gray' }]);
    expect(page.errors).toEqual([]);
  });
});
