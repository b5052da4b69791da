/**
 * A snapshot of a room showing a remote image keeps the version (ETag) of every key it read,
 * and verifying it asks the remote again (HEAD, no bytes): `same` while the remote holds the
 * same bytes, `differs` naming the key once the test changes them (or removes one), and the
 * snapshot's document travels with those versions.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RoomScene } from '../../core/wire/scene-types.ts';
import { fileTestApp, room } from '../helpers/create-test-app.ts';
import { waitFor } from '../helpers/wait-for.ts';
import { samplesOf, startRemoteServer, writeV04, writeV05, type RemoteServer } from '../helpers/zarr-remote.ts';

let remote: RemoteServer;
const spec = { axes: 'zyx', dtype: 'uint16' as const, chunks: [4, 4, 4], compression: 'gzip' as const, scale: [1, 1, 1] };
const level = { shape: [4, 8, 8], data: samplesOf('uint16', 4 * 8 * 8, 3) };
beforeAll(async () => {
  remote = await startRemoteServer();
  await writeV05(remote.files, { ...spec, path: 'sharded.ome.zarr', levels: [level] }, [1, 2, 1]);
  await writeV04(remote.files, { ...spec, path: 'plain.ome.zarr', levels: [level] }, '/');
});
afterAll(() => remote?.close());

const host = fileTestApp(async () => ({ remotes: { lab: remote.url } }));

interface Verdict {
  id: string;
  status: string;
  detail?: string;
  changed?: { key: string; recorded: string | null; now: string | null }[];
}

async function snapshotOf(specimen: string, reference: string): Promise<string> {
  const put = await host.app.inject({ method: 'PUT', url: `/api/specimens/${specimen}`, payload: { remote: reference } });
  expect(put.statusCode, put.body).toBe(201);
  const r = room();
  const added = await host.app.inject({ method: 'POST', url: `/api/rooms/${r}/layers`, payload: { source: { specimen } } });
  expect(added.statusCode, added.body).toBeLessThan(300);
  await waitFor(async () => {
    const s = (await host.app.inject({ method: 'GET', url: `/api/rooms/${r}/scene` })).json() as RoomScene;
    return s.layers.every((l) => l.result) || undefined;
  }, 'the remote layer shown');
  const taken = await host.app.inject({ method: 'POST', url: `/api/rooms/${r}/snapshots` });
  expect(taken.statusCode, taken.body).toBe(201);
  return (taken.json() as { id: string }).id;
}

async function verify(id: string): Promise<Verdict> {
  const res = await host.app.inject({ method: 'POST', url: `/api/snapshots/${id}/verify` });
  expect(res.statusCode, res.body).toBe(200);
  return (res.json() as { layers: Verdict[] }).layers[0]!;
}

describe('verifying a snapshot of a remote image', () => {
  it('keeps the ETags read, answers same, then differs naming the shard the remote rewrote', async () => {
    const id = await snapshotOf('sharded', 'lab/sharded.ome.zarr');
    const doc = (await host.app.inject({ method: 'GET', url: `/api/snapshots/${id}` })).json() as RoomScene & { scene: RoomScene };
    const versions = (doc.scene.layers[0]!.result!.provenance as { remote: { versions: Record<string, string> } }).remote.versions;
    // The root, the level's metadata and its two shards (4×8×8 in shards of 4×8×4).
    const keys = ['sharded.ome.zarr/0/c/0/0/0', 'sharded.ome.zarr/0/c/0/0/1', 'sharded.ome.zarr/0/zarr.json', 'sharded.ome.zarr/zarr.json'];
    expect(Object.keys(versions).sort()).toEqual(keys);

    remote.reset();
    expect(await verify(id)).toMatchObject({ status: 'same' });
    // Asked with HEADs: no byte of the image read again.
    expect(remote.sent.requests).toBe(4);
    expect(remote.sent.bytes).toBe(0);

    const shard = 'sharded.ome.zarr/0/c/0/0/0';
    const old = remote.files.get(shard)!;
    const rewritten = new Uint8Array(old);
    rewritten[0] = rewritten[0]! ^ 0xff;
    remote.files.set(shard, rewritten);
    const differs = await verify(id);
    expect(differs.status).toBe('differs');
    expect(differs.changed).toEqual([{ key: shard, recorded: versions[shard], now: expect.stringMatching(/^"[0-9a-f]{16}"$/) }]);
    expect(differs.detail).toContain(`'${shard}'`);
    expect(differs.detail).toContain("remote 'lab'");

    // Back as it was: the same again.
    remote.files.set(shard, old);
    expect((await verify(id)).status).toBe('same');
  });

  it('a chunk the remote no longer has, and a remote that is down, are said', async () => {
    const id = await snapshotOf('plain', 'lab/plain.ome.zarr');
    const chunk = 'plain.ome.zarr/0/0/1/1';
    const bytes = remote.files.get(chunk)!;
    remote.files.delete(chunk);
    const gone = await verify(id);
    expect(gone.status).toBe('differs');
    expect(gone.changed).toEqual([expect.objectContaining({ key: chunk, now: null })]);
    expect(gone.detail).toMatch(/→ absent/);
    remote.files.set(chunk, bytes);

    remote.failing = 500;
    try {
      expect(await verify(id)).toMatchObject({ status: 'unavailable', code: 'SPC_ERR_REMOTE_UNAVAILABLE' });
    } finally {
      remote.failing = null;
    }
    expect((await verify(id)).status).toBe('same');
  });
});
