/**
 * A closed room in the web viewer: an anonymous visitor's page of a room it may not read says
 * the room is closed to them and offers sign-in, in place of a catalog that failed to load (the
 * host answers its catalog 404, as for a room that is not there). Signed in as one of its
 * members (the token as `vitrine users add` printed it), the page lists what was published for
 * the room and draws its layers.
 */
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { peopleDir } from '../people/people-helpers.ts';
import { room as freshRoom, viewerQuery } from '../helpers/room.ts';
import { browserAndHost } from './browser-host.ts';
import { DRAW_SCALE, layersDrawn, openPage, shot } from './browser-session.ts';
import { closedRoom } from './closed-room-setup.ts';

const people = await peopleDir(['ada', 'bob', 'cy']);
const session = browserAndHost(['--data-dir', people.dir], DRAW_SCALE);
const room = freshRoom('closed');

/** ada's room, with an array published for it and two layers, closed to all but its editor bob. */
beforeAll(() => closedRoom(session.host.baseUrl, people.tokens.ada!, room, { editors: ['bob'], public: 'none' }));

/** Clicks the prompt's Sign in and gives `token` to the dialog it opens; resolves once the page has loaded again. */
async function signIn(page: Page, token: string): Promise<void> {
  page.once('dialog', (dialog) => void dialog.accept(token));
  await Promise.all([page.waitForEvent('load'), page.getByTestId('room-sign-in').click()]);
}

describe('a closed room in the viewer', { timeout: 300_000 }, () => {
  it('asks an anonymous visitor to sign in, then shows the room to a member', async () => {
    const { page, errors } = await openPage(session.browser, session.contexts, `${session.host.baseUrl}/${viewerQuery({ room, follow: true })}`);
    const closed = page.getByTestId('room-closed');
    await closed.waitFor();
    expect(await closed.textContent()).toContain(`The room ${room} is closed to you`);
    expect(await page.getByTestId('room-sign-in').textContent()).toBe('Sign in');
    expect(await page.locator('.catalog-error').count()).toBe(0);
    await shot(page, 'closed-room-anonymous');

    // A user who is not a member is told so, and may sign in as someone else.
    await signIn(page, people.tokens.cy!);
    await page.getByTestId('signed-in-as').getByText('cy').waitFor();
    await closed.waitFor();
    expect(await page.getByTestId('room-sign-in').textContent()).toBe('Sign in as someone else');

    // bob is one of its editors: the room's array is listed and its layers are drawn.
    await signIn(page, people.tokens.bob!);
    await page.getByTestId('signed-in-as').getByText('bob').waitFor();
    await page.locator(`[data-testid=catalog] [data-id="${room}.scan"]`).waitFor();
    await layersDrawn(page, ['ball', 'scan']);
    expect(await closed.count()).toBe(0);
    await shot(page, 'closed-room-member');
    expect(errors).toEqual([]);
  });
});
