/**
 * "Follow room" in the web viewer: two pages in two browser contexts on one host and one room,
 * the second following the room. What the first asks for (a typed value, slider steps, another
 * specimen) shows up in the second's panel and picture, learnt from the room's event stream and
 * loaded from the room cache; neither page polls for progress. Switching it off closes the
 * stream. Screenshots land in os.tmpdir()/vitrine-browser-shots.
 */
import type { Page, Request } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { room as freshRoom, viewerQuery } from '../helpers/room.ts';
import { DRAW_SCALE, shot, textOf, waitForState, waitForText } from './browser-session.ts';
import { STATE_WAIT_MS } from '../helpers/wait-for.ts';
import { browserAndHost } from './browser-host.ts';

const session = browserAndHost([], DRAW_SCALE);

const JOB = '[data-testid=job-state]';
const SEGMENTS = '[data-param=segments] input[type=number]';
const stat = (key: string): string => `[data-testid=stats] [data-stat=${key}] dd`;

/** A page in a context of its own (no shared cookies or cache), with what it requested. */
async function openPage(query: string): Promise<{ page: Page; requests: Request[]; open: (path: string) => Request[]; errors: string[] }> {
  const context = await session.browser.newContext({ viewport: { width: 1440, height: 900 } });
  session.contexts.push(context);
  const page = await context.newPage();
  const requests: Request[] = [];
  const ended = new Set<Request>();
  const errors: string[] = [];
  page.on('request', (r) => requests.push(r));
  page.on('requestfinished', (r) => ended.add(r));
  page.on('requestfailed', (r) => ended.add(r));
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto(`${session.host.baseUrl}/${query}`);
  const open = (path: string): Request[] => requests.filter((r) => new URL(r.url()).pathname === path && !ended.has(r));
  return { page, requests, open, errors };
}

/** Waits until the input matching `selector` holds `value`. */
async function waitForValue(page: Page, selector: string, value: string): Promise<void> {
  await page.waitForFunction(
    ([sel, want]) => document.querySelector<HTMLInputElement>(sel)?.value === want,
    [selector, value] as const,
    { timeout: STATE_WAIT_MS },
  );
}

const paths = (requests: Request[]): string[] => requests.map((r) => new URL(r.url()).pathname);

describe('follow room', () => {
  it('a following page shows what a peer in its room asks for, from the room stream', async () => {
    const room = freshRoom();
    const link = (specimen: string, params: Record<string, unknown>, follow = false): string =>
      viewerQuery({ specimen, room, params, follow });

    const first = await openPage(link('shape', { segments: 8 }));
    expect(await waitForState(first.page, JOB, ['done'])).toBe('done');
    await waitForText(first.page, stat('triangles'), '128');
    expect(await first.page.locator('[data-testid=follow-room]').isChecked()).toBe(false);

    const second = await openPage(link('shape', { segments: 8 }, true));
    expect(await waitForState(second.page, JOB, ['done', 'cached'])).toBe('cached');
    expect(await second.page.locator('[data-testid=follow-room]').isChecked()).toBe(true);
    await second.page.waitForSelector('.follow[data-stream=open]');
    const roomEvents = `/api/rooms/${room}/events`;
    expect(second.open(roomEvents)).toHaveLength(1);

    // A typed value in the first page: the second's panel and picture follow.
    await first.page.fill(SEGMENTS, '5');
    await first.page.press(SEGMENTS, 'Enter');
    await waitForText(first.page, stat('triangles'), '50');
    await waitForValue(second.page, SEGMENTS, '5');
    await waitForText(second.page, stat('triangles'), '50');
    expect(await second.page.locator('[data-param=segments] input[type=range]').inputValue()).toBe('5');
    // The follower's own load was a room cache hit, and its link says what it shows.
    expect(await waitForState(second.page, JOB, ['done', 'cached'])).toBe('cached');
    expect(new URL(second.page.url()).searchParams.get('params')).toContain('"segments":5');
    expect(new URL(second.page.url()).searchParams.get('follow')).toBe('1');

    // Slider steps in the first page (each a request; the older ones may finish or be
    // cancelled): the second ends on the last one.
    await first.page.focus('[data-param=segments] input[type=range]');
    for (let i = 0; i < 3; i++) await first.page.keyboard.press('ArrowRight');
    await waitForText(first.page, stat('triangles'), '128');
    await waitForState(first.page, JOB, ['done', 'cached']);
    await waitForValue(second.page, SEGMENTS, '8');
    await waitForText(second.page, stat('triangles'), '128');
    await shot(first.page, 'follow-first');
    await shot(second.page, 'follow-second');

    // Another specimen, slow enough to be seen computing: the second says a peer computes,
    // then selects that specimen with the peer's values.
    await first.page.goto(`${session.host.baseUrl}/${link('slow-sphere', { steps: 20, step_ms: 100 })}`);
    await waitForText(second.page, '[data-testid=follow-status]', 'A peer is computing…');
    await shot(second.page, 'follow-peer-computing');
    await waitForState(first.page, JOB, ['done']);
    await second.page.waitForSelector('.tile[data-id=slow-sphere].selected');
    await waitForValue(second.page, '[data-param=steps] input[type=number]', '20');
    expect(await second.page.locator('[data-param=step_ms] input[type=number]').inputValue()).toBe('100');
    expect(await waitForState(second.page, JOB, ['done', 'cached'])).toBe('cached');
    await waitForText(second.page, stat('triangles'), await textOf(first.page, stat('triangles')));
    expect(await textOf(second.page, '[data-testid=follow-status]')).toBe('');
    await shot(second.page, 'follow-second-slow-sphere');

    // Progress came from job event streams, never from polling. The follower opened the one
    // room stream, still open; it asks for a job only when the room moved on before its own
    // request for an entry arrived (a slider step replaced at once), and then follows that
    // job's events or cancels it, never polls.
    for (const page of [first, second]) expect(paths(page.requests).filter((p) => p.endsWith('/progress'))).toEqual([]);
    expect(paths(first.requests).filter((p) => /^\/api\/jobs\/[^/]+\/events$/.test(p)).length).toBeGreaterThan(0);
    const jobRequests = second.requests.filter((r) => new URL(r.url()).pathname.startsWith('/api/jobs/'));
    expect(jobRequests.every((r) => r.method() === 'DELETE' || new URL(r.url()).pathname.endsWith('/events'))).toBe(true);
    expect(paths(second.requests).filter((p) => p === roomEvents)).toHaveLength(1);
    expect(second.open(roomEvents)).toHaveLength(1);

    // Changing room closes that room's stream and opens the new room's.
    const otherRoom = `${room}-b`;
    const otherEvents = `/api/rooms/${otherRoom}/events`;
    const left = second.page.waitForEvent('requestfailed', (r) => new URL(r.url()).pathname === roomEvents);
    const joined = second.page.waitForRequest((r) => new URL(r.url()).pathname === otherEvents);
    await second.page.fill('[data-testid=room]', otherRoom);
    await second.page.press('[data-testid=room]', 'Enter');
    await Promise.all([left, joined]);
    await second.page.waitForSelector('.follow[data-stream=open]');
    expect(second.open(roomEvents)).toHaveLength(0);
    expect(second.open(otherEvents)).toHaveLength(1);

    // Switching it off closes the stream, and the link no longer follows.
    const closed = second.page.waitForEvent('requestfailed', (r) => new URL(r.url()).pathname === otherEvents);
    await second.page.click('[data-testid=follow-room]');
    await closed;
    await second.page.waitForSelector('.follow[data-stream=off]');
    expect(new URL(second.page.url()).searchParams.get('follow')).toBeNull();
    expect(second.open(otherEvents)).toHaveLength(0);
    expect([...first.errors, ...second.errors]).toEqual([]);
  });
  it('follows an entry named by its function, and ends the wait with the error when a computation fails', async () => {
    const room = freshRoom();
    const follower = await openPage(viewerQuery({ room, follow: true }));
    await follower.page.waitForSelector('.follow[data-stream=open]');
    const invoke = (function_name: string, kwargs: Record<string, unknown>) =>
      fetch(`${session.host.baseUrl}/api/processing/invoke`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ function_name, kwargs, room_id: room }),
      });

    // A client (an agent, a notebook) names the function, not the specimen that shows it.
    expect((await invoke('shape', { segments: 5 })).status).toBe(200);
    await follower.page.waitForSelector('.tile[data-id=shape].selected');
    await waitForValue(follower.page, SEGMENTS, '5');
    await waitForText(follower.page, stat('triangles'), '50');
    await shot(follower.page, 'follow-function-named');
    // The same named through the room's entry, as a notebook's show() or MCP's compute does.
    const entry = await fetch(`${session.host.baseUrl}/api/rooms/${room}/entry`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ function: 'shape', params: { segments: 7 } }),
    });
    expect(entry.status).toBe(200);
    await waitForValue(follower.page, SEGMENTS, '7');
    await waitForText(follower.page, stat('triangles'), '98');

    // A computation that fails: the follower's wait ends with the error, not "computing" for good.
    const failed = await invoke('broken', { message: 'no cells above the threshold' });
    expect(failed.status).toBeGreaterThanOrEqual(400);
    await follower.page.waitForFunction(
      () => document.querySelector('[data-testid=follow-status]')?.textContent?.startsWith("A peer's computation failed: "),
      undefined,
      { timeout: STATE_WAIT_MS },
    );
    expect(await textOf(follower.page, '[data-testid=follow-status]')).toContain('no cells above the threshold');
    await shot(follower.page, 'follow-peer-failed');
    expect(follower.errors).toEqual([]);
  });
});
