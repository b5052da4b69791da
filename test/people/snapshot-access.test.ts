/**
 * @module snapshot-access.test
 * A snapshot answers as the rooms it was taken of, on a real host over real HTTP. Of a closed
 * room, its owner and its viewer read it (its document and its session file), verify it and
 * restore it into a room of their own; another user and someone anonymous get, from each of
 * those, the 404 of an unknown snapshot, which does not name the room. The same content taken of
 * an open room as well is anyone's, as that room is. A session file of it brought in again by
 * someone the room refuses opens nothing. A known user restoring a snapshot (one brought in as a
 * file, too) is the author of every mark it puts in the room; the snapshot keeps what it said.
 */
import { describe, expect, it } from 'vitest';
import { fileTestApp } from '../helpers/create-test-app.ts';
import { room } from '../helpers/room.ts';
import { bearer, peopleDir } from './people-helpers.ts';

const people = await peopleDir(['own', 'vi', 'other']);
const host = fileTestApp({ dataDir: people.dir, adminToken: null });

type Who = 'own' | 'vi' | 'other' | 'anonymous';
const headersOf = (who: Who): Record<string, string> => (who === 'anonymous' ? {} : bearer(people.tokens[who]!));

async function call(method: string, path: string, who: Who, body?: unknown): Promise<{ status: number; text: string; type: string }> {
  const headers = { ...headersOf(who), ...(body === undefined ? {} : { 'content-type': 'application/json' }) };
  const response = await fetch(`${host.url}${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  return { status: response.status, text: await response.text(), type: response.headers.get('content-type') ?? '' };
}

/** A room `own` closed to all but viewer `vi`, holding `content` (a layer and a mark) or nothing. */
async function closedRoom(content: boolean): Promise<string> {
  const r = room('closed');
  expect((await call('PUT', `/api/rooms/${r}/access`, 'own', { viewers: ['vi'], public: 'none' })).status).toBe(200);
  if (content) {
    expect((await call('POST', `/api/rooms/${r}/layers`, 'own', { id: 'ramp', source: { function: 'ramp', params: {} } })).status).toBe(201);
    expect((await call('POST', `/api/rooms/${r}/annotations`, 'own', { kind: 'point', points: [[1, 2, 3]], label: r })).status).toBe(201);
  }
  return r;
}

async function snapshotOf(r: string, who: Who): Promise<string> {
  const taken = await call('POST', `/api/rooms/${r}/snapshots`, who);
  expect(taken.status).toBe(201);
  return (JSON.parse(taken.text) as { id: string }).id;
}

/** What each way of reading snapshot `id` answers `who`: status, and the error's code when refused. */
async function readsOf(id: string, who: Who): Promise<Record<string, string>> {
  const answers: Record<string, string> = {};
  const said = (answer: { status: number; text: string; type: string }) =>
    answer.status < 400 ? String(answer.status) : `${answer.status} ${(JSON.parse(answer.text) as { code: string }).code}`;
  answers.json = said(await call('GET', `/api/snapshots/${id}`, who));
  answers.bundle = said(await call('GET', `/api/snapshots/${id}?format=bundle`, who));
  answers.verify = said(await call('POST', `/api/snapshots/${id}/verify`, who));
  // Restored into an open room of the reader's own: the room lets anyone write, the snapshot decides.
  answers.restore = said(await call('PUT', `/api/rooms/${room('into')}/scene`, who, { snapshot: id }));
  return answers;
}

const READ = { json: '200', bundle: '200', verify: '200', restore: '200' };
const UNKNOWN = '404 SPC_ERR_SNAPSHOT_NOT_FOUND';
const REFUSED = { json: UNKNOWN, bundle: UNKNOWN, verify: UNKNOWN, restore: UNKNOWN };

describe('snapshots of a closed room', () => {
  it('answer its owner and viewer in every form and restore for them; to anyone else they are unknown', async () => {
    const r = await closedRoom(true);
    const id = await snapshotOf(r, 'own');
    expect(await readsOf(id, 'own')).toEqual(READ);
    expect(await readsOf(id, 'vi')).toEqual(READ);
    expect(await readsOf(id, 'other')).toEqual(REFUSED);
    expect(await readsOf(id, 'anonymous')).toEqual(REFUSED);
    // The refusal is an unknown snapshot's: the closed room's name is not in it.
    const refused = await call('GET', `/api/snapshots/${id}`, 'other');
    expect(refused.text).not.toContain(r);
    // The session file is what the owner was given.
    const bundle = await call('GET', `/api/snapshots/${id}?format=bundle`, 'own');
    expect(bundle.type).toContain('application/x-tar');
  });

  it('are anyone’s once the same content is taken of an open room, as that room is', async () => {
    // Two empty rooms hold the same thing: their snapshots are one.
    const id = await snapshotOf(await closedRoom(false), 'own');
    expect(await readsOf(id, 'other')).toEqual(REFUSED);
    expect(await snapshotOf(room('open'), 'anonymous')).toBe(id);
    expect(await readsOf(id, 'other')).toEqual(READ);
    expect(await readsOf(id, 'anonymous')).toEqual(READ);
  });

  it("restore their marks as the restorer's: a session file's authors are its claims, kept in it", async () => {
    // An open room lets a mark sent anonymously say anyone wrote it, as a crafted file can.
    const r = room('claims');
    const mark = { kind: 'point', points: [[1, 2, 3]], author: 'own' };
    expect((await call('POST', `/api/rooms/${r}/annotations`, 'anonymous', mark)).status).toBe(201);
    const id = await snapshotOf(r, 'anonymous');
    const file = new Uint8Array(await (await fetch(`${host.url}/api/snapshots/${id}?format=bundle`)).arrayBuffer());
    const headers = { ...headersOf('other'), 'content-type': 'application/x-tar' };
    const imported = await fetch(`${host.url}/api/snapshots`, { method: 'POST', headers, body: file });
    expect(imported.status).toBe(201);
    const authorsAfter = async (who: Who) => {
      const into = room('into');
      expect((await call('PUT', `/api/rooms/${into}/scene`, who, { snapshot: id })).status).toBe(200);
      const { annotations } = JSON.parse((await call('GET', `/api/rooms/${into}/annotations`, who)).text) as { annotations: { author?: string }[] };
      return annotations.map((a) => a.author);
    };
    expect(await authorsAfter('other')).toEqual(['other']);
    // Restored anonymously, the marks say what the file says, as an anonymous body's do.
    expect(await authorsAfter('anonymous')).toEqual(['own']);
    expect(JSON.parse((await call('GET', `/api/snapshots/${id}`, 'other')).text)).toMatchObject({ annotations: [{ author: 'own' }] });
  });

  it('stay closed when their session file is brought in again by someone the room refuses', async () => {
    const id = await snapshotOf(await closedRoom(true), 'own');
    const file = await fetch(`${host.url}/api/snapshots/${id}?format=bundle`, { headers: headersOf('own') });
    const bytes = new Uint8Array(await file.arrayBuffer());
    const taken = await fetch(`${host.url}/api/snapshots`, {
      method: 'POST',
      headers: { ...headersOf('other'), 'content-type': 'application/x-tar' },
      body: bytes,
    });
    expect(taken.status).toBe(201);
    expect(await readsOf(id, 'other')).toEqual(REFUSED);
    expect(await readsOf(id, 'vi')).toEqual(READ);
  });
});
