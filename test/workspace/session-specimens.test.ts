/**
 * The published specimens a session file carries, over real HTTP between two hosts of their
 * own: the file holds `specimens/0`, the array a room's layer was made from (its header naming
 * it and the SHA-256 of its file, then the file's very bytes); a byte of it changed, or a
 * header naming a specimen no layer names, is refused with its catalogued code; a file written
 * before specimens were carried is still taken in (its array's layer cannot be checked there),
 * and the same file with it brings the array along: published there under the same id, its
 * layer served and verified `same`.
 */
import { createHash } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../core/app.ts';
import { tarEntries } from '../helpers/tar-entries.ts';
import { writeTar } from '../../core/formats/tar/write-tar.ts';
import type { SnapshotCreated } from '../../core/wire/scene-types.ts';
import { fileTestApp } from '../helpers/create-test-app.ts';
import { fixturePluginsDir } from '../helpers/fixture-plugins.ts';
import { room } from '../helpers/room.ts';
import { npyBytes } from '../helpers/specimens-dir.ts';

const source = fileTestApp();
const r = room('carried');
const array = npyBytes([4, 4, 4]);
let other: FastifyInstance;
let otherUrl = '';
let file: Buffer;
let id = '';

const JSON_TYPE = { 'content-type': 'application/json' };
const post = (body: Uint8Array) =>
  fetch(`${otherUrl}/api/snapshots`, { method: 'POST', headers: { 'content-type': 'application/x-tar' }, body: Uint8Array.from(body) });

beforeAll(async () => {
  const base = source.url;
  const put = await fetch(`${base}/api/specimens/${r}.scan?filename=scan.npy&room=${r}`, {
    method: 'PUT',
    headers: { 'content-type': 'application/octet-stream' },
    body: Uint8Array.from(array),
  });
  expect(put.status).toBe(201);
  const layers = [{ id: 'scan', source: { specimen: `${r}.scan` } }];
  expect((await fetch(`${base}/api/rooms/${r}/scene`, { method: 'PUT', headers: JSON_TYPE, body: JSON.stringify({ layers }) })).status).toBe(200);
  id = ((await (await fetch(`${base}/api/rooms/${r}/snapshots`, { method: 'POST' })).json()) as SnapshotCreated).id;
  file = Buffer.from(await (await fetch(`${base}/api/snapshots/${id}?format=bundle`)).arrayBuffer());
  other = await createApp({ pluginsDir: await fixturePluginsDir(), specimensDir: null, logLevel: false, poolSize: 1, viewer: false });
  otherUrl = await other.listen({ host: '127.0.0.1', port: 0 });
}, 120_000);
afterAll(() => other?.close());

/** What verifying the snapshot on the other host says of its array's layer. */
async function scanThere(): Promise<string> {
  const verified = (await (await fetch(`${otherUrl}/api/snapshots/${id}/verify`, { method: 'POST' })).json()) as { layers: { status: string }[] };
  return verified.layers[0]!.status;
}

describe('a session file of a room made from a published array', () => {
  it('carries the array: its header, then its file', async () => {
    const entry = (await tarEntries(file)).find((e) => e.name === 'specimens/0')!;
    const newline = entry.data.indexOf(0x0a);
    const header = JSON.parse(Buffer.from(entry.data.subarray(0, newline)).toString('utf8')) as Record<string, unknown>;
    expect(header).toMatchObject({ id: `${r}.scan`, room: r, sha: createHash('sha256').update(array).digest('hex') });
    expect(Buffer.from(entry.data.subarray(newline + 1))).toEqual(array);
  });

  it('is refused (400 naming the entry) when a byte of the array changed', async () => {
    const changed = Buffer.from(file);
    const entry = (await tarEntries(changed)).find((e) => e.name === 'specimens/0')!;
    entry.data[entry.data.length - 1]! ^= 0xff;
    const body = (await (await post(changed)).json()) as { code: string; detail: string };
    expect(body).toMatchObject({ status_code: 400, code: 'SPC_ERR_SESSION_MISMATCH' });
    expect(body.detail).toContain("'specimens/0'");
  });

  it('is refused (400) when it carries a specimen no layer names', async () => {
    const changed = Buffer.from(file);
    const entry = (await tarEntries(changed)).find((e) => e.name === 'specimens/0')!;
    const at = Buffer.from(entry.data).indexOf(`"${r}.scan"`);
    entry.data.set(Buffer.from(`"${r}.scab"`), at);
    const body = (await (await post(changed)).json()) as { code: string; detail: string };
    expect(body).toMatchObject({ status_code: 400, code: 'SPC_ERR_SESSION_INVALID' });
    expect(body.detail).toContain('no layer of the snapshot names');
  });

  it('is taken in as before when written without it, and brings the array along with it', async () => {
    const older = writeTar((await tarEntries(file)).filter((e) => !e.name.startsWith('specimens/')).map((e) => ({ name: e.name, data: [e.data] })));
    expect((await post(Buffer.concat(older.chunks))).status).toBe(201);
    expect(await scanThere()).toBe('unavailable');

    const answer = await post(file);
    expect(answer.status).toBe(201);
    expect(await answer.json()).toEqual({ id, url: `/?snapshot=${id}` });
    expect(await scanThere()).toBe('same');
    expect((await fetch(`${otherUrl}/api/specimens/${r}.scan/data`)).status).toBe(200);
    const restore = { method: 'PUT', headers: JSON_TYPE, body: JSON.stringify({ snapshot: id }) };
    expect((await fetch(`${otherUrl}/api/rooms/${r}/scene`, restore)).status).toBe(200);
    expect((await fetch(`${otherUrl}/api/rooms/${r}/layers/scan/data`)).status).toBe(200);
    // The same file again: the host has that specimen, the same bytes, and keeps it unsaid.
    expect(await (await post(file)).json()).toEqual({ id, url: `/?snapshot=${id}` });
  });
});
