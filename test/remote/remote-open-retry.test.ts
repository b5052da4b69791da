/**
 * A lone host with a data folder started while the remote of a specimen it keeps is down does
 * not list that specimen, and lists it by itself once the remote is back (tried again after
 * 5 s, then with a growing wait), with no catalog reload and no restart.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp } from '../helpers/create-test-app.ts';
import { tempDataDir } from '../helpers/temp-data-store.ts';
import { waitFor } from '../helpers/wait-for.ts';
import { samplesOf, startRemoteServer, writeV05, type RemoteServer } from '../helpers/zarr-remote.ts';

let remote: RemoteServer;
beforeAll(async () => {
  remote = await startRemoteServer();
  const spec = { path: 'cells.ome.zarr', axes: 'zyx', dtype: 'uint8' as const, chunks: [4, 4, 4], compression: 'none' as const, scale: [1, 1, 1] };
  await writeV05(remote.files, { ...spec, levels: [{ shape: [4, 8, 8], data: samplesOf('uint8', 256, 2) }] });
});
afterAll(() => remote?.close());

describe('a remote specimen whose remote is down when the host starts', () => {
  it('is listed once the remote is back, by itself', async () => {
    const options = { dataDir: tempDataDir(), remotes: { lab: remote.url } };
    const first = await createTestApp(options);
    const put = await first.inject({ method: 'PUT', url: '/api/specimens/later', payload: { remote: 'lab/cells.ome.zarr' } });
    expect(put.statusCode, put.body).toBe(201);
    await first.close();

    remote.failing = 503;
    const again = await createTestApp(options);
    try {
      const ids = async () => ((await again.inject({ url: '/api/specimens' })).json() as { id: string }[]).map((s) => s.id);
      expect(await ids()).not.toContain('later');
      expect((await again.inject({ url: '/api/specimens/later/data?format=npy' })).statusCode).toBe(404);

      remote.failing = null;
      await waitFor(async () => (await ids()).includes('later') || undefined, 'the specimen listed once its remote is back', 30_000, 200);
      const data = await again.inject({ url: '/api/specimens/later/data?format=npy' });
      expect(data.statusCode, data.body.slice(0, 200)).toBe(200);
    } finally {
      await again.close();
    }
  }, 90_000);
});
