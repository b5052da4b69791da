/**
 * The replay timeline in the web viewer: a page following a room into which another room's
 * session is played shows the timeline (from the room's `replay` events), pauses the replay
 * with its button, seeks with its slider, and hides it once the replay ends.
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { room as freshRoom, viewerQuery } from '../helpers/room.ts';
import { STATE_WAIT_MS, waitFor } from '../helpers/wait-for.ts';
import { DRAW_SCALE } from './browser-session.ts';
import { browserAndHost } from './browser-host.ts';

const session = browserAndHost([], DRAW_SCALE);
const TIMELINE = '[data-testid=replay-timeline]';

const send = (method: string, path: string, body?: unknown) =>
  fetch(`${session.host.baseUrl}${path}`, { method, headers: { 'content-type': 'application/json' }, ...(body ? { body: JSON.stringify(body) } : {}) });

async function stateOf(page: Page): Promise<string | null> {
  return page.evaluate((sel) => {
    const el = document.querySelector<HTMLElement>(sel);
    return el && !el.hidden ? (el.dataset.state ?? null) : null;
  }, TIMELINE);
}

describe('replay timeline', () => {
  it('shows a replay playing into the followed room, pauses and seeks it, and goes when it ends', async () => {
    const from = freshRoom('session');
    // A session of three view changes 1.5 s apart (each waits for its moment on the clock, polled), recorded as they are made.
    let at = Date.now();
    for (const opacity of [0.1, 0.2, 0.3]) {
      await waitFor(() => (Date.now() >= at ? true : undefined), 'the next moment of the session', 5000, 5);
      expect((await send('PUT', `/api/rooms/${from}/view`, { opacity })).status).toBe(200);
      at += 1500;
    }
    const into = freshRoom('played');
    const context = await session.browser.newContext({ viewport: { width: 1440, height: 900 } });
    session.contexts.push(context);
    const page = await context.newPage();
    await page.goto(`${session.host.baseUrl}/${viewerQuery({ specimen: 'shape', room: into, follow: true })}`);
    await page.waitForSelector('.follow[data-stream=open]');

    expect((await send('POST', `/api/rooms/${into}/replay`, { from, speed: 0.5 })).status).toBe(202);
    await waitFor(async () => ((await stateOf(page)) === 'playing' ? true : undefined), 'the timeline playing', STATE_WAIT_MS);
    expect(await page.locator('[data-testid=replay-time]').textContent()).toContain(from);
    await page.click('[data-testid=replay-play]');
    await waitFor(async () => ((await stateOf(page)) === 'paused' ? true : undefined), 'the timeline paused');
    expect(((await (await send('GET', `/api/rooms/${into}/replay`)).json()) as { state: string }).state).toBe('paused');

    const status = (await (await send('GET', `/api/rooms/${into}/replay`)).json()) as { end_ts: number };
    // The slider dragged to its end (a range input is set, then changed, as a drag ends).
    await page.evaluate((end) => {
      const slider = document.querySelector<HTMLInputElement>('[data-testid=replay-seek]')!;
      slider.value = String(end);
      slider.dispatchEvent(new Event('change'));
    }, status.end_ts);
    await waitFor(async () => {
      const view = (await (await send('GET', `/api/rooms/${into}/view`)).json()) as { opacity?: number };
      return view.opacity === 0.3 ? true : undefined;
    }, 'the room at the end of the session');
    await page.click('[data-testid=replay-play]');
    await waitFor(async () => ((await stateOf(page)) === null ? true : undefined), 'the timeline gone at the end');
  });
});
