/**
 * @module result-doors-access.test
 * A result's doors by id (its multi-resolution meshes, its OME-Zarr store and what the result is)
 * follow the rooms it is of: labels published for a closed room answer 404, as for an id nothing
 * holds, to a stranger (anonymous, or a user with no access) who learnt the result id, and the
 * room's viewer and owner get them. A computed result only a closed room's entry holds answers
 * the same; once an open room holds it too, anyone may read it.
 */
import { describe, expect, it } from 'vitest';
import { addDynamicSpecimen, fileTestApp } from '../helpers/create-test-app.ts';
import { room } from '../helpers/room.ts';
import { npyBytes } from '../fixtures/specimens/npy-writer.ts';
import { peopleDir } from './people-helpers.ts';
import { call, closeRoom, tokenPeople, type TrustHost, type Who } from './trust-host.ts';

const people = await peopleDir(['own', 'vi', 'other']);
const host = fileTestApp({ dataDir: people.dir });
const enc = encodeURIComponent;

/** A 16³ labels volume: a ball of label 5. */
function labelsBytes(): Buffer {
  const n = 16;
  const data = new Uint8Array(n * n * n).map((_, i) => (Math.hypot((i % n) - 8, (Math.floor(i / n) % n) - 8, Math.floor(i / n / n) - 8) < 5 ? 5 : 0));
  return npyBytes({ descr: '|u1', shape: [n, n, n], data });
}

/** The doors of result `id` and their answers' status and code, as `who`. */
async function doors(trust: TrustHost, who: Who, id: string): Promise<string[]> {
  return Promise.all(
    KEYS.map(async (key) => {
      const response = await fetch(`${trust.url}/api/results/${key.replace('<id>', id)}`, { headers: trust.as(who) });
      const code = response.status === 200 ? '' : String(((await response.json()) as { code?: string }).code);
      return `${key}: ${response.status} ${code}`.trim();
    }),
  );
}

const KEYS = ['<id>/meshes/info', '<id>/meshes/5.index', '<id>.zarr/.zattrs', '<id>.zarr/0/.zarray', '<id>.zarr/meshes/zarr.json', '<id>'];
const refused = KEYS.map((key) => `${key}: 404 SPC_ERR_RESULT_ID_NOT_FOUND`);
const given = KEYS.map((key) => `${key}: 200`);

describe("a closed room's result by its id", () => {
  it('answers its labels published for the room to its readers only', async () => {
    const trust = tokenPeople(host.url, people.tokens);
    const closed = room('lab');
    await closeRoom(trust, closed);
    const specimen = `${closed}.seg`;
    const published = await fetch(`${host.url}/api/specimens/${specimen}?filename=seg.npy&role=labels&room=${enc(closed)}`, {
      method: 'PUT',
      headers: { ...trust.as('own'), 'content-type': 'application/octet-stream' },
      body: new Uint8Array(labelsBytes()),
    });
    expect(published.status, await published.clone().text()).toBe(201);
    // Its owner reads it in the host's default room, an open one: the result is still the closed room's.
    const data = await fetch(`${host.url}/api/specimens/${specimen}/data`, { headers: trust.as('own') });
    expect(data.status).toBe(200);
    const id = String(data.headers.get('x-result-id'));
    for (const who of ['anonymous', 'other'] satisfies Who[]) expect(await doors(trust, who, id), who).toEqual(refused);
    for (const who of ['vi', 'own'] satisfies Who[]) expect(await doors(trust, who, id), who).toEqual(given);
  });

  it("answers a result only a closed room's entry holds to its readers, and to anyone once an open room holds it", async () => {
    const trust = tokenPeople(host.url, people.tokens);
    const closed = room('shut');
    const open = room('open');
    await closeRoom(trust, closed);
    addDynamicSpecimen(host.app, 'seg_labels', 'label_blobs');
    const entry = await call(trust, 'own', 'PUT', `/api/rooms/${enc(closed)}/entry`, { specimen: 'seg_labels' });
    expect(entry.status, JSON.stringify(entry.body)).toBeLessThan(300);
    const data = await fetch(`${host.url}/api/specimens/seg_labels/data?room_id=${enc(closed)}`, { headers: trust.as('own') });
    expect(data.status).toBe(200);
    const id = String(data.headers.get('x-result-id'));
    const info = (who: Who) => fetch(`${host.url}/api/results/${id}.zarr/.zattrs`, { headers: trust.as(who) }).then((r) => r.status);
    expect([await info('anonymous'), await info('other'), await info('vi'), await info('own')]).toEqual([404, 404, 200, 200]);
    const shown = await fetch(`${host.url}/api/specimens/seg_labels/data?room_id=${enc(open)}`);
    expect(shown.headers.get('x-result-id')).toBe(id);
    expect([await info('anonymous'), await info('other')]).toEqual([200, 200]);
  });
});
