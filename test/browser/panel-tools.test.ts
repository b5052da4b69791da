/**
 * The viewer panel's own tools, in a real Chromium against a real host on the fixture plugins:
 * number fields that fit six digits and logarithmic sliders over wide ranges; parameters from a
 * link that the schema does not know, shown and removed; a follower seeing the progress of a
 * peer's job from its event stream. Screenshots land in os.tmpdir()/vitrine-browser-shots.
 */
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { builtFixture } from '../helpers/built-fixture.ts';
import { room, viewerQuery } from '../helpers/room.ts';
import { spawnHost, type RunningHost } from '../helpers/spawn-host.ts';
import { DRAW_SCALE, shot, waitForState } from './browser-session.ts';
import { FilePage, type LoadedPage } from './file-page.ts';
import { fileBrowser } from './fork-browser.ts';
import { STATE_WAIT_MS } from '../helpers/wait-for.ts';

let host: RunningHost;
let browser: Browser;
let pluginsDir: string;
/** Each case loads its links into these pages (file-page.ts): the second is a peer's window. */
let windows: FilePage[];

beforeAll(async () => {
  [pluginsDir, browser] = await Promise.all([builtFixture('browser-plugins'), fileBrowser(DRAW_SCALE)]);
  host = await spawnHost(['--host', '127.0.0.1', '--port', '0', '--plugins', pluginsDir, '--specimens', 'none']);
  windows = [0, 1].map(() => new FilePage(browser, { viewport: { width: 1440, height: 900 } }));
});

afterAll(async () => {
  await browser?.close();
  await host?.stop();
});

const JOB = '[data-testid=job-state]';

const open = (query: string, which = 0): Promise<LoadedPage> => windows[which]!.open(`${host.url}/${query}`);

const link = (specimen: string, params: Record<string, unknown>): string => viewerQuery({ specimen, room: room(), params });

describe('parameters', () => {
  it('fits six-digit values and slides logarithmically over wide ranges', async () => {
    const { page } = await open(link('galaxy', { count: 150000 }));
    await waitForState(page, JOB, ['done', 'cached']);
    const count = page.locator('[data-param=count] input[type=number]');
    expect(await count.inputValue()).toBe('150000');
    expect(await count.evaluate((el) => el.scrollWidth <= el.clientWidth)).toBe(true);
    const slider = page.locator('[data-param=count] input[type=range]');
    expect(await slider.getAttribute('data-scale')).toBe('log');
    // The middle of a 10..200000 log track is near the geometric mean (about 1414), not 100005.
    await slider.evaluate((el: HTMLInputElement) => {
      el.value = String((Number(el.max) + Number(el.min)) / 2);
      el.dispatchEvent(new Event('input', { bubbles: true }));
      el.dispatchEvent(new Event('change', { bubbles: true }));
    });
    const middle = Number(await count.inputValue());
    expect(middle).toBeGreaterThan(1300);
    expect(middle).toBeLessThan(1500);
    await expect.poll(() => new URL(page.url()).searchParams.get('params')).toContain(`"count":${middle}`);
    // A narrow range stays linear.
    expect(await page.locator('[data-param=arms] input[type=range]').getAttribute('data-scale')).toBe('linear');
    await shot(page, 'data-tools-params');
  });

  it('shows parameters from a link that the schema does not know, and removes them', async () => {
    const { page } = await open(link('shape', { segments: 8, bogus: 1 }));
    await waitForState(page, JOB, ['error']);
    const unknown = page.locator('[data-testid=unknown-params]');
    expect(await unknown.isVisible()).toBe(true);
    expect(await unknown.locator('.unknown-item').evaluateAll((items) => items.map((i) => (i as HTMLElement).dataset.param))).toEqual(['bogus']);
    expect(await unknown.locator('.unknown-value').textContent()).toBe('1');
    await shot(page, 'data-tools-unknown-params');
    await page.click('[data-testid=unknown-params] button[aria-label="Remove bogus"]');
    expect(await waitForState(page, JOB, ['done', 'cached'])).not.toBe('error');
    expect(await unknown.isVisible()).toBe(false);
    const sent = JSON.parse(new URL(page.url()).searchParams.get('params') ?? '{}') as Record<string, unknown>;
    expect(sent).not.toHaveProperty('bogus');
    expect(sent.segments).toBe(8);
  });
});

describe('following a peer', () => {
  it('shows the progress of the job a peer in the room is computing, from its event stream', async () => {
    const shared = room();
    const follower = await open(viewerQuery({ room: shared, follow: true }));
    await follower.page.waitForSelector('.follow[data-stream=open]');
    const peer = await open(viewerQuery({ specimen: 'slow-sphere', room: shared, params: { steps: 30, step_ms: 150 } }), 1);
    await follower.page.waitForFunction(
      () => /^\d+% · step \d+ of 30$/.test(document.querySelector('[data-testid=peer-progress]')?.textContent ?? ''),
      undefined,
      { timeout: STATE_WAIT_MS },
    );
    expect(await follower.page.locator('[data-testid=follow-status]').textContent()).toBe('A peer is computing…');
    await shot(follower.page, 'data-tools-peer-progress');
    const jobStreams = follower.requests.map((r) => new URL(r.url()).pathname).filter((p) => /^\/api\/jobs\/[^/]+\/events$/.test(p));
    expect(jobStreams.length).toBeGreaterThan(0);
    expect(follower.requests.some((r) => new URL(r.url()).pathname.endsWith('/progress'))).toBe(false);
    // When the peer's result arrives, the follower shows it and the progress goes.
    await waitForState(peer.page, JOB, ['done']);
    await follower.page.waitForSelector('.tile[data-id=slow-sphere].selected');
    await follower.page.waitForFunction(() => document.querySelector('[data-testid=peer-progress]')?.textContent === '');
    expect([...follower.errors, ...peer.errors]).toEqual([]);
  });
});
