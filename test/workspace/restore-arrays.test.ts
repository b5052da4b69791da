/**
 * A room's published arrays go where its scene goes, over real HTTP between two hosts of their
 * own. A room's layer made from an array published for it (`<room>.scan`, with a unit) is taken
 * as a snapshot and restored into a room of another name on the same host, and its session file
 * is taken in by a second host and restored there under yet another name: each time the room
 * restored into lists the array in its catalog (`?room=`), with its unit, under its own name
 * (`<room>.scan`), its layer names that copy and serves the same bytes, and a closed room's copy
 * stays closed to a stranger. Restored under the original name, nothing is copied.
 */
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../core/app.ts';
import type { RoomScene, SnapshotCreated } from '../../core/wire/scene-types.ts';
import { fileTestApp } from '../helpers/create-test-app.ts';
import { fixturePluginsDir } from '../helpers/fixture-plugins.ts';
import { room } from '../helpers/room.ts';
import { npyBytes } from '../helpers/specimens-dir.ts';
import { bearer, peopleDir } from '../people/people-helpers.ts';

const source = fileTestApp();
const r = room('rep');
const array = npyBytes([4, 5, 6]);
// The second host knows one user, who closes a room of their own.
const people = await peopleDir(['own']);
const owner = bearer(people.tokens.own!);
let other: FastifyInstance;
let otherUrl = '';
let file: Buffer;
let id = '';

const JSON_TYPE = { 'content-type': 'application/json' };
const restore = (base: string, into: string, who: Record<string, string> = {}) =>
  fetch(`${base}/api/rooms/${into}/scene`, { method: 'PUT', headers: { ...JSON_TYPE, ...who }, body: JSON.stringify({ snapshot: id }) });

beforeAll(async () => {
  const base = source.url;
  const put = await fetch(`${base}/api/specimens/${r}.scan?filename=scan.npy&room=${r}&unit=micrometer`, {
    method: 'PUT',
    headers: { 'content-type': 'application/octet-stream' },
    body: Uint8Array.from(array),
  });
  expect(put.status).toBe(201);
  const layers = [{ id: 'scan', source: { specimen: `${r}.scan` }, name: 'scan' }];
  expect((await fetch(`${base}/api/rooms/${r}/scene`, { method: 'PUT', headers: JSON_TYPE, body: JSON.stringify({ layers }) })).status).toBe(200);
  id = ((await (await fetch(`${base}/api/rooms/${r}/snapshots`, { method: 'POST' })).json()) as SnapshotCreated).id;
  file = Buffer.from(await (await fetch(`${base}/api/snapshots/${id}?format=bundle`)).arrayBuffer());
  other = await createApp({
    pluginsDir: await fixturePluginsDir(),
    specimensDir: null,
    logLevel: false,
    poolSize: 1,
    viewer: false,
    dataDir: people.dir,
    adminToken: null,
  });
  otherUrl = await other.listen({ host: '127.0.0.1', port: 0 });
}, 120_000);
afterAll(() => other?.close());

/** Checks that room `into` of host `base` shows the restored array as its own. */
async function showsArray(base: string, into: string): Promise<void> {
  const own = `${into}.scan`;
  const scene = (await (await fetch(`${base}/api/rooms/${into}/scene`)).json()) as RoomScene;
  expect(scene.layers.map((layer) => layer.source.specimen)).toEqual([own]);
  expect(scene.active).toBe('scan');
  const catalog = (await (await fetch(`${base}/api/specimens?room=${into}`)).json()) as { id: string; room?: string }[];
  expect(catalog.find((entry) => entry.id === own)).toMatchObject({ id: own, room: into });
  // The original room's array is not listed there: the room has its own.
  expect(catalog.some((entry) => entry.id === `${r}.scan`)).toBe(false);
  // Its unit goes with it: the copy's own data (the envelope's header) says it.
  const envelope = Buffer.from(await (await fetch(`${base}/api/specimens/${own}/data`)).arrayBuffer());
  expect(envelope.includes('"unit":"micrometer"')).toBe(true);
  const data = await fetch(`${base}/api/specimens/${own}/data?format=npy`);
  expect(data.status).toBe(200);
  const layer = await fetch(`${base}/api/rooms/${into}/layers/scan/data?format=npy`);
  expect(layer.status).toBe(200);
  expect(Buffer.from(await layer.arrayBuffer())).toEqual(Buffer.from(await data.arrayBuffer()));
}

describe("a room's published arrays restored with its scene", () => {
  it('are copied into a room of another name on the same host, listed there with their unit', async () => {
    const into = room('rep-b');
    expect((await restore(source.url, into)).status).toBe(200);
    await showsArray(source.url, into);
    // Restored again, the copy is the same one (nothing published twice).
    expect((await restore(source.url, into)).status).toBe(200);
    await showsArray(source.url, into);
  });

  it('are not copied when restored under the original name', async () => {
    expect((await restore(source.url, r)).status).toBe(200);
    const scene = (await (await fetch(`${source.url}/api/rooms/${r}/scene`)).json()) as RoomScene;
    expect(scene.layers[0]!.source.specimen).toBe(`${r}.scan`);
  });

  it('go along with a session file taken in by a second host and restored under a new name', async () => {
    const taken = await fetch(`${otherUrl}/api/snapshots`, { method: 'POST', headers: { 'content-type': 'application/x-tar' }, body: Uint8Array.from(file) });
    expect(taken.status).toBe(201);
    const into = room('rep-c');
    expect((await restore(otherUrl, into)).status).toBe(200);
    await showsArray(otherUrl, into);
  });

  it("stay under the access of the room restored into: a closed room's copy is closed to a stranger", async () => {
    const into = room('rep-closed');
    const access = { method: 'PUT', headers: { ...JSON_TYPE, ...owner }, body: JSON.stringify({ public: 'none' }) };
    expect((await fetch(`${otherUrl}/api/rooms/${into}/access`, access)).status).toBe(200);
    expect((await restore(otherUrl, into, owner)).status).toBe(200);
    // Its owner sees the array; a stranger gets neither the listing nor the array, nor its name.
    expect((await fetch(`${otherUrl}/api/specimens/${into}.scan/data`, { headers: owner })).status).toBe(200);
    const listed = (await (await fetch(`${otherUrl}/api/specimens?room=${into}`, { headers: owner })).json()) as { id: string }[];
    expect(listed.map((entry) => entry.id)).toContain(`${into}.scan`);
    expect((await fetch(`${otherUrl}/api/specimens?room=${into}`)).status).toBe(404);
    expect((await fetch(`${otherUrl}/api/specimens/${into}.scan/data`)).status).toBe(404);
    expect((await fetch(`${otherUrl}/api/specimens/${into}.scan`)).status).toBe(404);
  });
});
