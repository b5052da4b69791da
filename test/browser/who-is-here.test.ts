/**
 * "Who is here" in the web viewer: a page following a room lists everyone following it
 * (another page, a notebook naming itself), each with its kind, learnt from the room's
 * `presence` events; one that leaves is gone from the list. Nothing is polled.
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { room as freshRoom, viewerQuery } from '../helpers/room.ts';
import { openStream } from '../helpers/sse-reader.ts';
import { STATE_WAIT_MS } from '../helpers/wait-for.ts';
import { browserAndHost } from './browser-host.ts';

const session = browserAndHost();
const HERE = '[data-testid=who-is-here]';

async function openPage(query: string): Promise<Page> {
  const context = await session.browser.newContext({ viewport: { width: 1440, height: 900 } });
  session.contexts.push(context);
  const page = await context.newPage();
  await page.goto(`${session.host.baseUrl}/${query}`);
  return page;
}

/** Waits until the list says exactly `text`. */
async function waitForHere(page: Page, text: string): Promise<void> {
  await page.waitForFunction(([sel, want]) => document.querySelector(sel)?.textContent === want, [HERE, text] as const, { timeout: STATE_WAIT_MS });
}

describe('who is here', () => {
  it('lists the room’s followers with their kinds as they come and go', async () => {
    const room = freshRoom('here');
    const first = await openPage(viewerQuery({ specimen: 'shape', room, follow: true }));
    await first.waitForSelector('.follow[data-stream=open]');
    await waitForHere(first, 'Here: anonymous (page)');
    const second = await openPage(viewerQuery({ specimen: 'shape', room, follow: true }));
    await waitForHere(first, 'Here: anonymous (page), anonymous (page)');
    await waitForHere(second, 'Here: anonymous (page), anonymous (page)');
    const notebook = await openStream(`${session.host.baseUrl}/api/rooms/${room}/events?name=nb&kind=notebook`);
    await waitForHere(first, 'Here: anonymous (page), anonymous (page), nb (notebook)');
    notebook.close();
    await second.close();
    await waitForHere(first, 'Here: anonymous (page)');
    expect(await first.locator(HERE).isVisible()).toBe(true);
  });
});
