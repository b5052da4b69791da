/**
 * Remote chunks are kept under their own version (the ETag the remote gives each chunk or
 * shard), trusted for REVALIDATE_SECONDS: a chunk the remote rewrote without touching its
 * array's metadata is served anew once its version has been asked again (a HEAD, after the
 * window; the test moves the clock), while the chunks that did not change are not read again;
 * inside the window nothing is asked at all. A level the host holds is read anew once a
 * snapshot's verify finds its remote changed.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import * as zarr from 'zarrita';
import type { RoomScene } from '../../core/wire/scene-types.ts';
import { REVALIDATE_SECONDS } from '../../core/remote/chunk-validators.ts';
import { fileTestApp, room } from '../helpers/create-test-app.ts';
import { waitFor } from '../helpers/wait-for.ts';
import { samplesOf, startRemoteServer, writeV04, type RemoteServer } from '../helpers/zarr-remote.ts';

let remote: RemoteServer;
const spec = { axes: 'zyx', dtype: 'uint16' as const, chunks: [4, 4, 8], compression: 'gzip' as const, scale: [1, 1, 1] };
const level = { shape: [4, 8, 8], data: samplesOf('uint16', 4 * 8 * 8, 5) };
beforeAll(async () => {
  remote = await startRemoteServer();
  await writeV04(remote.files, { ...spec, path: 'cells.ome.zarr', levels: [level] }, '/');
  await writeV04(remote.files, { ...spec, path: 'held.ome.zarr', levels: [level] }, '/');
});
afterAll(() => remote?.close());
afterEach(() => vi.useRealTimers());

const host = fileTestApp(async () => ({ remotes: { lab: remote.url } }));

/** `path`'s chunk rewritten on the remote (so its ETag moves) with the samples of another image; the new bytes. */
async function rewrite(path: string, chunk: string): Promise<{ bytes: Uint8Array; data: Uint16Array }> {
  const other = new Map<string, Uint8Array>();
  const data = samplesOf('uint16', 4 * 8 * 8, 99) as Uint16Array<ArrayBuffer>;
  await writeV04(other, { ...spec, path, levels: [{ shape: level.shape, data }] }, '/');
  const bytes = other.get(`${path}/${chunk}`)!;
  remote.files.set(`${path}/${chunk}`, bytes);
  return { bytes, data };
}

const bytesOf = async (url: string) => Buffer.from(await (await fetch(url)).arrayBuffer());

describe('remote chunks kept under their own version', () => {
  it('serve a rewritten chunk anew after the version is asked again, and do not read the others again', async () => {
    const put = await host.app.inject({ method: 'PUT', url: '/api/specimens/versioned', payload: { remote: 'lab/cells.ome.zarr' } });
    expect(put.statusCode, put.body).toBe(201);
    const base = `${host.url}/api/specimens/versioned/zarr/0`;
    const [a, b] = ['0/0/0', '0/1/0'];
    const before = { a: remote.files.get(`cells.ome.zarr/0/${a}`)!, b: remote.files.get(`cells.ome.zarr/0/${b}`)! };
    expect(await bytesOf(`${base}/${a}`)).toEqual(Buffer.from(before.a));
    expect(await bytesOf(`${base}/${b}`)).toEqual(Buffer.from(before.b));

    const { bytes: after } = await rewrite('cells.ome.zarr', `0/${a}`);
    remote.reset();
    // Inside the window: the kept bytes, without a word to the remote.
    expect(await bytesOf(`${base}/${a}`)).toEqual(Buffer.from(before.a));
    expect(remote.sent.requests).toBe(0);

    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(Date.now() + (REVALIDATE_SECONDS + 1) * 1000);
    expect(await bytesOf(`${base}/${a}`)).toEqual(Buffer.from(after));
    expect(await bytesOf(`${base}/${b}`)).toEqual(Buffer.from(before.b));
    // A HEAD each, and the bytes of the rewritten chunk only.
    expect(remote.sent.paths).toEqual([`cells.ome.zarr/0/${a}`, `cells.ome.zarr/0/${a}`, `cells.ome.zarr/0/${b}`]);
    expect(remote.sent.bytes).toBe(after.length);

    // Asked again, the new version is trusted for its window: nothing is asked.
    remote.reset();
    expect(await bytesOf(`${base}/${a}`)).toEqual(Buffer.from(after));
    expect(remote.sent.requests).toBe(0);
  });

  it('read a held level anew once verify says the remote differs', async () => {
    const put = await host.app.inject({ method: 'PUT', url: '/api/specimens/held', payload: { remote: 'lab/held.ome.zarr' } });
    expect(put.statusCode, put.body).toBe(201);
    const r = room();
    const added = await host.app.inject({ method: 'POST', url: `/api/rooms/${r}/layers`, payload: { source: { specimen: 'held' } } });
    expect(added.statusCode, added.body).toBeLessThan(300);
    await waitFor(async () => ((await host.app.inject({ url: `/api/rooms/${r}/scene` })).json() as RoomScene).layers[0]?.result, 'the layer shown');
    const snapshot = await host.app.inject({ method: 'POST', url: `/api/rooms/${r}/snapshots` });
    expect(snapshot.statusCode, snapshot.body).toBe(201);

    /** The level the host holds, read back through its own OME-Zarr store. */
    const held = async () => {
      const data = await host.app.inject({ url: '/api/specimens/held/data?format=npy' });
      expect(data.statusCode, data.body.slice(0, 200)).toBe(200);
      const id = String(data.headers['x-result-id']);
      const store = new zarr.FetchStore(`${host.url}/api/results/${id}.zarr`);
      const values = Array.from((await zarr.get(await zarr.open.v2(zarr.root(store).resolve('0'), { kind: 'array', attrs: false }))).data as Uint16Array);
      // Its value range (scanned on the thread that read it) is that of its values.
      const summary = (await host.app.inject({ url: `/api/results/${id}` })).json() as { value_range: [number, number] };
      expect(summary.value_range).toEqual([Math.min(...values), Math.max(...values)]);
      return values;
    };
    expect(await held()).toEqual(Array.from(level.data));

    const { data: fresh } = await rewrite('held.ome.zarr', '0/0/1/0');
    // Held, the level is what was read.
    expect(await held()).toEqual(Array.from(level.data));
    const verified = await host.app.inject({ method: 'POST', url: `/api/snapshots/${(snapshot.json() as { id: string }).id}/verify` });
    expect((verified.json() as { layers: { status: string }[] }).layers[0]!.status).toBe('differs');
    // Read anew: the rewritten chunk's samples (z 0-3, y 4-7) from the new image, the rest as before.
    const expected = Array.from(level.data, (v, i) => (Math.floor(i / 8) % 8 >= 4 ? fresh[i]! : v));
    expect(await held()).toEqual(expected);
  });
});
