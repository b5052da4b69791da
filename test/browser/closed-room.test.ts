/**
 * A closed room in the web viewer: an anonymous visitor's page of a room it may not read says
 * the room is closed to them and offers sign-in, in place of a catalog that failed to load (the
 * host answers its catalog 404, as for a room that is not there). Signed in as one of its
 * members (the token as `vitrine users add` printed it), the page lists what was published for
 * the room and draws its layers.
 */
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { bearer, peopleDir } from '../people/people-helpers.ts';
import { npyBytes } from '../helpers/specimens-dir.ts';
import { room as freshRoom, viewerQuery } from '../helpers/room.ts';
import { STATE_WAIT_MS } from '../helpers/wait-for.ts';
import { browserAndHost } from './browser-host.ts';
import { openPage, shot } from './browser-session.ts';

const people = await peopleDir(['ada', 'bob', 'cy']);
const session = browserAndHost(['--data-dir', people.dir]);
const room = freshRoom('closed');
const JSON_TYPE = { 'content-type': 'application/json' };

/** Waits until the stage draws exactly the layers `ids`. */
async function drawn(page: Page, ids: string[]): Promise<void> {
  await page.waitForFunction(
    (want) => (document.querySelector<HTMLElement>('canvas.stage-canvas')?.dataset.layersDrawn ?? '').split(' ').sort().join(' ') === want,
    [...ids].sort().join(' '),
    { timeout: STATE_WAIT_MS },
  );
}

/** ada's room, with an array published for it and two layers, closed to all but its editor bob. */
beforeAll(async () => {
  const base = session.host.baseUrl;
  const ada = bearer(people.tokens.ada!);
  const scan = `${base}/api/specimens/${room}.scan?filename=scan.npy&room=${room}`;
  const array = { method: 'PUT', headers: { ...ada, 'content-type': 'application/octet-stream' }, body: Uint8Array.from(npyBytes([8, 8, 8])) };
  expect((await fetch(scan, array)).status).toBe(201);
  const layers = [
    { id: 'ball', source: { function: 'shape', params: { segments: 12 } } },
    { id: 'scan', source: { specimen: `${room}.scan` }, opacity: 0.5 },
  ];
  const scene = { method: 'PUT', headers: { ...ada, ...JSON_TYPE }, body: JSON.stringify({ layers, active: 'ball' }) };
  expect((await fetch(`${base}/api/rooms/${room}/scene`, scene)).status).toBe(200);
  const access = { method: 'PUT', headers: { ...ada, ...JSON_TYPE }, body: JSON.stringify({ editors: ['bob'], public: 'none' }) };
  expect((await fetch(`${base}/api/rooms/${room}/access`, access)).status).toBe(200);
});

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
    await drawn(page, ['ball', 'scan']);
    expect(await closed.count()).toBe(0);
    await shot(page, 'closed-room-member');
    expect(errors).toEqual([]);
  });
});
