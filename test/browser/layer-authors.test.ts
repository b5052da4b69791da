/**
 * Who changed each layer, in the web viewer: on a page following a room, a layer's row says who
 * made its last change ("by ada", said in full in its tooltip), as the host recorded it from
 * the user's token (a name the request's body gave is not it); another user's change moves it
 * on the page as it happens.
 */
import { describe, expect, it } from 'vitest';
import { room as freshRoom, viewerQuery } from '../helpers/room.ts';
import { bearer, peopleDir } from '../people/people-helpers.ts';
import { browserAndHost } from './browser-host.ts';
import { DRAW_SCALE, openPage, shot, waitForText } from './browser-session.ts';

const people = await peopleDir(['ada', 'bob']);
const session = browserAndHost(['--data-dir', people.dir], DRAW_SCALE);

async function send(method: string, path: string, user: string, body: unknown): Promise<void> {
  const headers = { ...bearer(people.tokens[user]!), 'content-type': 'application/json' };
  const response = await fetch(`${session.host.baseUrl}${path}`, { method, headers, body: JSON.stringify(body) });
  if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${await response.text()}`);
}

describe('who changed a layer, in the layer list', () => {
  it("names the user of each layer's last change, and follows a change by someone else", async () => {
    const room = freshRoom('layer-by');
    await send('POST', `/api/rooms/${room}/layers`, 'ada', { id: 'ball', source: { function: 'shape', params: { segments: 12 } }, by: 'mallory' });
    const { page, errors } = await openPage(session.browser, session.contexts, `${session.host.baseUrl}/${viewerQuery({ room, follow: true })}`);
    const by = '[data-testid=layer-row][data-layer=ball] [data-testid=layer-by]';
    await waitForText(page, by, 'by ada');
    expect(await page.locator(by).getAttribute('title')).toBe('ada made the last change to this layer');
    expect(await page.locator(by).isVisible()).toBe(true);

    await send('PATCH', `/api/rooms/${room}/layers/ball`, 'bob', { opacity: 0.5 });
    await waitForText(page, by, 'by bob');
    expect(await page.locator(by).getAttribute('title')).toBe('bob made the last change to this layer');
    await shot(page, 'layer-by');
    expect(errors).toEqual([]);
  });
});
