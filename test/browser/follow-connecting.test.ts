/**
 * A page following a room says nothing of what the room holds until its stream has told it:
 * while the room's event stream is held back, neither "add a layer" nor "No marks" shows; once
 * the stream connects (an empty room), both do.
 */
import type { Route } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { room as freshRoom, viewerQuery } from '../helpers/room.ts';
import { STATE_WAIT_MS } from '../helpers/wait-for.ts';
import { DRAW_SCALE } from './browser-session.ts';
import { browserAndHost } from './browser-host.ts';

const session = browserAndHost([], DRAW_SCALE);

const LAYER_NOTE = '[data-testid=layers] .layer-note';
const MARK_NOTE = '[data-testid=marks-empty]';

describe('a following page before its stream connects', () => {
  it('says no "add a layer" and no "No marks" until the room has told it', async () => {
    const context = await session.browser.newContext({ viewport: { width: 1280, height: 800 } });
    session.contexts.push(context);
    const page = await context.newPage();
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    let asked!: () => void;
    const streamAsked = new Promise<void>((resolve) => (asked = resolve));
    await page.route(/\/api\/rooms\/[^/]+\/events/, async (route: Route) => {
      asked();
      await held;
      await route.continue();
    });
    const room = freshRoom('connecting');
    await page.goto(`${session.host.baseUrl}/${viewerQuery({ specimen: 'shape', room, follow: true })}`);
    await streamAsked;
    // The page is up (its sections drawn) and waits for the stream.
    await page.waitForSelector('[data-testid=layers]', { state: 'attached', timeout: STATE_WAIT_MS });
    await page.waitForSelector('[data-testid=annotations]', { state: 'attached', timeout: STATE_WAIT_MS });
    expect(await page.locator(LAYER_NOTE).textContent()).not.toMatch(/add a layer/);
    expect(await page.locator(MARK_NOTE).isVisible()).toBe(false);

    release();
    const says = (selector: string) => /add a layer/.test(document.querySelector(selector)?.textContent ?? '');
    await page.waitForFunction(says, LAYER_NOTE, { timeout: STATE_WAIT_MS });
    await page.locator(MARK_NOTE).waitFor({ state: 'visible', timeout: STATE_WAIT_MS });
  });
});
