/**
 * @module people.test
 * Who a request is, and what a closed room lets them do, on a real host over real HTTP: a user's
 * token names its user, an unknown one is a 401 on any route, a user removed beside the running
 * host is refused at its next request, the admin token is an admin; a
 * known user's marks are authored by that user whatever the body says, its changes' events
 * carry `by`, and each layer says who made its last change; a ticket opens a stream once; a room is open until its first user closes it, and
 * then only its owner (or an admin) changes its access.
 */
import { describe, expect, it } from 'vitest';
import { fileTestApp } from '../helpers/create-test-app.ts';
import { room } from '../helpers/room.ts';
import { openStream } from '../helpers/sse-reader.ts';
import { LmdbUserStore, usersOfDataDir } from '../../core/people/lmdb-user-store.ts';
import { bearer, peopleDir } from './people-helpers.ts';

const people = await peopleDir(['ada', 'bob', 'cy', 'eve', 'root'], ['root']);
const host = fileTestApp({ dataDir: people.dir, adminToken: null });
const as = (name: string) => bearer(people.tokens[name]!);

async function call(method: string, path: string, headers: Record<string, string> = {}, body?: unknown) {
  const response = await fetch(`${host.url}${path}`, {
    method,
    headers: { ...headers, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, body: text ? (JSON.parse(text) as Record<string, unknown>) : null };
}

describe('tokens', () => {
  it('names the user; an unknown token is a 401 wherever it is sent, and answers carry no token', async () => {
    expect((await call('GET', '/api/specimens/', as('ada'))).status).toBe(200);
    expect((await call('GET', '/api/me', as('root'))).body).toEqual({ name: 'root', admin: true });
    expect((await call('GET', '/api/me')).body).toEqual({ name: 'anonymous', admin: false });
    for (const path of ['/api/specimens/', `/api/rooms/${room()}/scene`, '/healthz']) {
      const refused = await call('GET', path, bearer('vt_not-a-token'));
      expect(refused, path).toMatchObject({ status: 401, body: { code: 'SPC_ERR_TOKEN_UNKNOWN' } });
    }
    const challenged = await fetch(`${host.url}/api/specimens/`, { headers: bearer('vt_not-a-token') });
    expect(challenged.headers.get('www-authenticate')).toBe('Bearer error="invalid_token"');
  });

  it('refuses a user removed beside the host at its next request, though its token was just honoured', async () => {
    // Twice, so the host has seen (and may remember) the token before the user goes.
    for (let i = 0; i < 2; i++) expect((await call('GET', '/api/me', as('eve'))).body).toEqual({ name: 'eve', admin: false });
    // The data dir's store opened anew, as `vitrine users remove` opens it beside a running host.
    const beside = new LmdbUserStore(usersOfDataDir(people.dir));
    try {
      expect(await beside.remove('eve')).toBe(true);
    } finally {
      await beside.close();
    }
    expect((await call('GET', '/api/me', as('eve'))).status).toBe(401);
  });

  it("authors a known user's marks by that user whatever the body says; an anonymous body keeps its own", async () => {
    const r = room('marks');
    const mark = { kind: 'point', points: [[1, 2, 3]], author: 'mallory' };
    expect((await call('POST', `/api/rooms/${r}/annotations`, as('ada'), mark)).body).toMatchObject({ author: 'ada' });
    const list = await call('POST', `/api/rooms/${r}/annotations`, as('bob'), [mark, { ...mark, author: undefined }]);
    expect((list.body!.annotations as { author: string }[]).map((a) => a.author)).toEqual(['bob', 'bob']);
    expect((await call('POST', `/api/rooms/${r}/annotations`, {}, mark)).body).toMatchObject({ author: 'mallory' });
  });

  it('sends by with the scene, view and snapshot changes a known user makes', async () => {
    const r = room('by');
    const stream = await openStream(`${host.url}/api/rooms/${r}/events`);
    try {
      await call('PUT', `/api/rooms/${r}/view`, as('cy'), { opacity: 0.5 });
      const view = await stream.next((e) => e.event === 'view' && (e.data as { opacity?: number } | null)?.opacity === 0.5);
      expect(view.data).toMatchObject({ by: 'cy' });
      await call('POST', `/api/rooms/${r}/layers`, as('bob'), { id: 'a', source: { function: 'ramp', params: {} } });
      expect((await stream.next((e) => e.event === 'scene' && (e.data as { version: number }).version === 1)).data).toMatchObject({ by: 'bob' });
      const taken = await call('POST', `/api/rooms/${r}/snapshots`, as('ada'));
      expect((await stream.next((e) => e.event === 'snapshot')).data).toEqual({ ...taken.body, by: 'ada' });
    } finally {
      stream.close();
    }
  });

  it("records in each layer who made its last change, never what a body says", async () => {
    const r = room('layer-by');
    const layers = async () => ((await call('GET', `/api/rooms/${r}/scene`)).body!.layers as { id: string; by?: string }[]);
    const ramp = { id: 'a', source: { function: 'ramp', params: {} }, by: 'mallory' };
    expect((await call('POST', `/api/rooms/${r}/layers`, as('ada'), ramp)).body).toMatchObject({ id: 'a', by: 'ada' });
    expect((await call('PATCH', `/api/rooms/${r}/layers/a`, as('bob'), { opacity: 0.5, by: 'mallory' })).body).toMatchObject({ by: 'bob' });
    // A change that changes nothing of the layer (the same opacity; making it active) says nothing of who.
    await call('PATCH', `/api/rooms/${r}/layers/a`, as('cy'), { opacity: 0.5, active: true });
    expect((await layers()).map((l) => l.by)).toEqual(['bob']);
    // The scene put again with one more layer: the layer given as it was keeps its author; the new one is the writer's.
    const [a] = await layers();
    expect((await call('PUT', `/api/rooms/${r}/scene`, {}, { layers: [{ ...a, by: 'mallory' }, { id: 'b', source: ramp.source }] })).status).toBe(200);
    expect((await layers()).map((l) => [l.id, l.by])).toEqual([['a', 'bob'], ['b', 'anonymous']]);
    // A snapshot restored into another room is the restorer's change.
    const taken = await call('POST', `/api/rooms/${r}/snapshots`, as('ada'));
    const into = room('layer-by-into');
    const restored = await call('PUT', `/api/rooms/${into}/scene`, as('cy'), { snapshot: taken.body!.id });
    expect((restored.body!.layers as { by?: string }[]).map((l) => l.by)).toEqual(['cy', 'cy']);
  });
});

describe('tickets', () => {
  it("open a closed room's stream once for their user, as EventSource cannot send a header", async () => {
    const r = room('ticket');
    expect((await call('PUT', `/api/rooms/${r}/access`, as('ada'), { public: 'none' })).status).toBe(200);
    expect(await call('POST', '/api/tickets')).toMatchObject({ status: 401, body: { code: 'SPC_ERR_TICKET_SIGN_IN' } });
    const asked = await call('POST', '/api/tickets', as('ada'));
    expect(asked).toMatchObject({ status: 201, body: { expires_in: 60 } });
    const ticket = asked.body!.ticket as string;
    expect((await call('GET', `/api/rooms/${r}/scene`)).status).toBe(404);
    const stream = await openStream(`${host.url}/api/rooms/${r}/events?ticket=${ticket}`);
    expect((await stream.next((e) => e.event === 'scene')).data).toMatchObject({ version: 0 });
    stream.close();
    expect(await call('GET', `/api/rooms/${r}/events?ticket=${ticket}`)).toMatchObject({ status: 401, body: { code: 'SPC_ERR_TICKET_UNKNOWN' } });
  });
});

describe('room access', () => {
  it('is open by default; the first user to set it owns the room; then only the owner or an admin changes it', async () => {
    const r = room('access');
    expect(await call('GET', `/api/rooms/${r}/access`)).toEqual({ status: 200, body: { owner: null, editors: [], viewers: [], public: 'write' } });
    expect(await call('PUT', `/api/rooms/${r}/access`, {}, { public: 'read' })).toMatchObject({ status: 401, body: { code: 'SPC_ERR_ACCESS_SIGN_IN' } });
    const set = await call('PUT', `/api/rooms/${r}/access`, as('ada'), { owner: 'bob', editors: ['bob'], public: 'read' });
    expect(set).toEqual({ status: 200, body: { owner: 'ada', editors: ['bob'], viewers: [], public: 'read' } });
    const editorSets = await call('PUT', `/api/rooms/${r}/access`, as('bob'), { public: 'write' });
    expect(editorSets).toMatchObject({ status: 403, body: { code: 'SPC_ERR_ACCESS_OWNER_ONLY' } });
    expect((await call('GET', `/api/rooms/${r}/access`)).body).toMatchObject({ owner: 'ada', public: 'read' });
    // Readers read, editors write, others are refused as the room says.
    expect((await call('GET', `/api/rooms/${r}/view`)).status).toBe(200);
    expect((await call('PUT', `/api/rooms/${r}/view`, as('bob'), { opacity: 0.2 })).status).toBe(200);
    const otherWrites = await call('PUT', `/api/rooms/${r}/view`, as('cy'), { opacity: 0.3 });
    expect(otherWrites).toMatchObject({ status: 403, body: { code: 'SPC_ERR_ROOM_WRITE_FORBIDDEN' } });
    expect(await call('PUT', `/api/rooms/${r}/view`, {}, { opacity: 0.3 })).toMatchObject({ status: 401, body: { code: 'SPC_ERR_ROOM_SIGN_IN' } });
    // An admin may hand the room on; its new owner closes it to everyone else.
    expect((await call('PUT', `/api/rooms/${r}/access`, as('root'), { owner: 'cy', public: 'none' })).body).toMatchObject({ owner: 'cy' });
    expect(await call('GET', `/api/rooms/${r}/access`, as('ada'))).toMatchObject({ status: 404, body: { code: 'SPC_ERR_ROOM_NOT_VISIBLE' } });
    expect((await call('GET', `/api/rooms/${r}/access`, as('cy'))).status).toBe(200);
  });

  it("closes a room's open streams for whoever may no longer read it, and keeps its readers'", async () => {
    const r = room('streams');
    const anonymous = await openStream(`${host.url}/api/rooms/${r}/events`);
    const viewer = await openStream(`${host.url}/api/rooms/${r}/events`, as('cy'));
    await Promise.all([anonymous.next((e) => e.event === 'scene'), viewer.next((e) => e.event === 'scene')]);
    expect((await call('PUT', `/api/rooms/${r}/access`, as('ada'), { viewers: ['cy'] })).status).toBe(200);
    await anonymous.ended;
    await call('PUT', `/api/rooms/${r}/view`, as('ada'), { opacity: 0.25 });
    expect((await viewer.next((e) => e.event === 'view' && (e.data as { opacity?: number } | null)?.opacity === 0.25)).data).toMatchObject({ by: 'ada' });
    viewer.close();
  });

  it('makes exactly one owner of two users closing an open room at once', async () => {
    const r = room('race');
    const answers = await Promise.all(['ada', 'bob'].map((name) => call('PUT', `/api/rooms/${r}/access`, as(name), { public: 'none' })));
    // The one who lost may not even read the room it wanted to close.
    expect(answers.map((a) => a.status).sort()).toEqual([200, 404]);
    const winner = answers.find((a) => a.status === 200)!.body!.owner;
    expect((await call('GET', `/api/rooms/${r}/access`, as(winner as string))).body).toMatchObject({ owner: winner });
  });
});
