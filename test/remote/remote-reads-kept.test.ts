/**
 * Remote reads are kept in the blob plane: a host started again on its data folder, and a
 * second host of a Redis service sharing its blob store, read a remote image's chunks they
 * already have without asking the remote for them (the image's metadata is read afresh when it
 * is published, so a rewritten array is still read again).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp } from '../helpers/create-test-app.ts';
import { startRedis } from '../helpers/redis-server.ts';
import { tempDataDir } from '../helpers/temp-data-store.ts';
import { samplesOf, startRemoteServer, writeV05, type RemoteServer } from '../helpers/zarr-remote.ts';
import type { FastifyInstance } from 'fastify';

let remote: RemoteServer;
const data = samplesOf('uint16', 8 * 16 * 16, 4);
beforeAll(async () => {
  remote = await startRemoteServer();
  const spec = { path: 'cells.ome.zarr', axes: 'zyx', dtype: 'uint16' as const, chunks: [4, 8, 8], compression: 'zstd' as const, scale: [1, 1, 1] };
  await writeV05(remote.files, { ...spec, levels: [{ shape: [8, 16, 16], data }] }, [1, 2, 1]);
});
afterAll(() => remote?.close());

/** Requests for chunks (shard indexes and inner chunks), not metadata documents. */
const chunkReads = () => remote.sent.paths.filter((p) => p.includes('/c/')).length;

/** Publishes the image on `app` and reads its values (as .npy), counting the chunk reads it made. */
async function readThrough(app: FastifyInstance): Promise<{ values: Uint16Array; chunkReads: number }> {
  const put = await app.inject({ method: 'PUT', url: '/api/specimens/cells', payload: { remote: 'lab/cells.ome.zarr' } });
  expect(put.statusCode, put.body).toBeLessThan(300);
  remote.reset();
  const res = await app.inject({ method: 'GET', url: '/api/specimens/cells/data?format=npy' });
  expect(res.statusCode, res.body.slice(0, 300)).toBe(200);
  const npy = res.rawPayload;
  const headerEnd = 10 + npy.readUInt16LE(8);
  const values = new Uint16Array(npy.buffer.slice(npy.byteOffset + headerEnd, npy.byteOffset + npy.byteLength));
  return { values, chunkReads: chunkReads() };
}

describe('remote reads kept in the blob plane', () => {
  it('are read back by a host started again on its data folder, without asking the remote', async () => {
    const dataDir = tempDataDir();
    const options = { dataDir, remotes: { lab: remote.url } };
    const first = await createTestApp(options);
    const cold = await readThrough(first);
    expect(Array.from(cold.values)).toEqual(Array.from(data));
    expect(cold.chunkReads).toBeGreaterThan(0);
    await first.close();

    const again = await createTestApp(options);
    const warm = await readThrough(again);
    expect(Array.from(warm.values)).toEqual(Array.from(data));
    expect(warm.chunkReads).toBe(0);
  }, 150_000);

  it('are read by a second host of a Redis service sharing the blob store, without asking the remote', async () => {
    const redis = await startRedis();
    const options = { redis: redis.url, remotes: { lab: remote.url } };
    const [a, b] = [await createTestApp(options), await createTestApp(options)];
    const cold = await readThrough(a);
    expect(cold.chunkReads).toBeGreaterThan(0);
    const shared = await readThrough(b);
    expect(Array.from(shared.values)).toEqual(Array.from(data));
    expect(shared.chunkReads).toBe(0);
  }, 150_000);
});
