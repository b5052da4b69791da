/**
 * @module room-rights.test
 * What a page reads of its rights in a room (viewer/room/room-rights.ts, through the client's
 * `people()`) agrees with what the host does: for the owner, an editor, a viewer, another user,
 * an admin and someone anonymous, in a room that lets everyone read and one that is open, the
 * page may write exactly when a real write of each answers 2xx, and a refused one says why in
 * words naming who the page is.
 */
import { describe, expect, it } from 'vitest';
import { createClient } from '../../core/client/client.ts';
import { readRoomRights } from '../../viewer/room/room-rights.ts';
import { fileTestApp, room } from '../helpers/create-test-app.ts';
import { bearer, peopleDir } from './people-helpers.ts';

const people = await peopleDir(['own', 'ed', 'vi', 'other', 'boss'], ['boss']);
const host = fileTestApp({ dataDir: people.dir });
const WHO = ['own', 'ed', 'vi', 'other', 'boss', 'anonymous'] as const;

const tokenOf = (who: (typeof WHO)[number]): string | undefined => (who === 'anonymous' ? undefined : people.tokens[who]);

/** A write of the room's scene as `who`: its status. */
async function writeAs(roomId: string, who: (typeof WHO)[number]): Promise<number> {
  const token = tokenOf(who);
  const response = await fetch(`${host.url}/api/rooms/${roomId}/scene`, {
    method: 'PUT',
    headers: { 'content-type': 'application/json', ...(token ? bearer(token) : {}) },
    body: JSON.stringify({ layers: [] }),
  });
  const body = await response.text();
  // A write is taken, or refused for who makes it: nothing else.
  expect([200, 401, 403], body).toContain(response.status);
  return response.status;
}

describe("a page's rights in a room", () => {
  it('may write exactly where the host takes its writes, and says why where it does not', async () => {
    const closed = room('rights');
    const close = await fetch(`${host.url}/api/rooms/${closed}/access`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json', ...bearer(people.tokens.own!) },
      body: JSON.stringify({ editors: ['ed'], viewers: ['vi'], public: 'read' }),
    });
    expect(close.status).toBe(200);
    const open = room('rights-open');
    for (const roomId of [closed, open]) {
      for (const who of WHO) {
        const rights = await readRoomRights(createClient({ baseUrl: host.url, token: tokenOf(who) }), roomId);
        const status = await writeAs(roomId, who);
        expect({ who, roomId, write: rights.write }).toEqual({ who, roomId, write: status < 300 });
        if (rights.write) expect(rights.why).toBe('');
      }
    }
    const viewer = await readRoomRights(createClient({ baseUrl: host.url, token: people.tokens.vi }), closed);
    expect(viewer.why).toBe('vi may look at this room but not change it (its owner, own, can make you an editor).');
    const anonymous = await readRoomRights(createClient({ baseUrl: host.url }), closed);
    expect(anonymous.why).toBe('Only people this room names may change it: sign in to edit.');
  });
});
