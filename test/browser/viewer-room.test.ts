/**
 * A closed room's viewer (a member who may read it, not change it) following it in the web viewer: the
 * page reads what the room shows and draws every layer, and asks for nothing in a way that
 * would change the room, so no refusal shows.
 */
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { bearer, peopleDir } from '../people/people-helpers.ts';
import { room as freshRoom, viewerQuery } from '../helpers/room.ts';
import { STATE_WAIT_MS, waitFor } from '../helpers/wait-for.ts';
import { browserAndHost } from './browser-host.ts';
import { DRAW_SCALE, layersDrawn, openPage, shot } from './browser-session.ts';
import { closedRoom } from './closed-room-setup.ts';

const people = await peopleDir(['ada', 'bob']);
const session = browserAndHost(['--data-dir', people.dir], DRAW_SCALE);
const room = freshRoom('viewed');

beforeAll(() => closedRoom(session.host.baseUrl, people.tokens.ada!, room, { viewers: ['bob'], public: 'none' }));

/** Requests that are not reads (a ticket for the event stream is one: it names no room). */
function changes(page: Page): string[] {
  const sent: string[] = [];
  page.on('request', (request) => {
    const url = new URL(request.url());
    if (!['GET', 'HEAD'].includes(request.method()) && url.pathname !== '/api/tickets') sent.push(`${request.method()} ${url.pathname}`);
  });
  return sent;
}

/** Answers that refused the page (401, 403). */
function refusals(page: Page): string[] {
  const refused: string[] = [];
  page.on('response', (response) => {
    if ([401, 403].includes(response.status())) refused.push(`${response.status()} ${response.request().method()} ${new URL(response.url()).pathname}`);
  });
  return refused;
}

describe('a closed room followed by one of its viewers', { timeout: 300_000 }, () => {
  it('draws the active layer and every other, reading the room and changing nothing', async () => {
    const base = session.host.baseUrl;
    const entry = async (): Promise<{ result_id?: string }> =>
      (await fetch(`${base}/api/rooms/${room}/entry`, { headers: bearer(people.tokens.ada!) })).json() as Promise<{ result_id?: string }>;
    // The host has computed the room's active layer: its entry names the result.
    const entryBefore = await waitFor(async () => ((await entry()).result_id ? entry() : undefined), 'the room entry computed');
    const { page, errors } = await openPage(session.browser, session.contexts, `${base}/${viewerQuery({ room, follow: true })}`);
    const sent = changes(page);
    const refused = refusals(page);
    await page.getByTestId('room-closed').waitFor();
    page.once('dialog', (dialog) => void dialog.accept(people.tokens.bob!));
    await Promise.all([page.waitForEvent('load'), page.getByTestId('room-sign-in').click()]);
    await page.getByTestId('signed-in-as').getByText('bob').waitFor();

    // The active layer (ball, the room's entry) is drawn with the array beside it, read as the room shows it.
    await layersDrawn(page, ['ball', 'scan']);
    await page.waitForFunction(() => document.querySelector('[data-testid=job-state]')?.getAttribute('data-state') === 'cached', undefined, {
      timeout: STATE_WAIT_MS,
    });
    expect(await page.getByTestId('stage-message').getAttribute('data-kind')).not.toBe('error');
    expect(await page.getByTestId('stage-message').textContent()).not.toContain('403');
    await shot(page, 'viewer-room-viewer');
    expect(refused).toEqual([]);
    expect(sent).toEqual([]);
    // The room is as ada left it.
    expect(await entry()).toEqual(entryBefore);
    expect(errors).toEqual([]);
  });
});
