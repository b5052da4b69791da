/**
 * Every volume result is also an OME-Zarr v0.5 store on Zarr v3 at
 * `/api/results/{id}.ome.zarr/`: zarrita reads every level back, over real HTTP, with the
 * same shape and values as the v0.4 store beside it; `zarr.json` at each node, shards of zstd
 * inner chunks of at most 64 per axis; a labels volume an NGFF label image; `Range` answered
 * (206, 416 past the end); the v0.4 store keeps its path.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as zarr from 'zarrita';
import { addDynamicSpecimen, fileTestApp, room } from '../helpers/create-test-app.ts';
import { samplesOf, startRemoteServer, writeV05, type RemoteServer } from '../helpers/zarr-remote.ts';

let remote: RemoteServer;
beforeAll(async () => {
  remote = await startRemoteServer();
  const data = samplesOf('uint16', 6 * 70 * 40).map((v) => v % 5);
  await writeV05(remote.files, { path: 'seg.ome.zarr', axes: 'zyx', dtype: 'uint16', chunks: [8, 8, 8], compression: 'zstd', scale: [1, 1, 1], labels: true,
    levels: [{ shape: [6, 70, 40], data }] });
});
afterAll(() => remote?.close());

const host = fileTestApp(async () => ({ remotes: { lab: remote.url } }));

async function resultIdOf(path: string): Promise<string> {
  const res = await fetch(`${host.url}${path}`);
  expect(res.status).toBe(200);
  await res.arrayBuffer();
  return res.headers.get('x-result-id')!;
}

type Level = { shape: number[]; data: ArrayLike<number> };

async function levelsOf(id: string): Promise<{ v4: Level[]; v5: Level[]; attrs: Record<string, unknown> }> {
  const v4store = new zarr.FetchStore(`${host.url}/api/results/${id}.zarr`);
  const v5store = new zarr.FetchStore(`${host.url}/api/results/${id}.ome.zarr`);
  const v4group = await zarr.open.v2(zarr.root(v4store), { kind: 'group' });
  const v5group = await zarr.open.v3(zarr.root(v5store), { kind: 'group' });
  const datasets = (v4group.attrs as { multiscales: { datasets: { path: string }[] }[] }).multiscales[0]!.datasets;
  const v4: Level[] = [];
  const v5: Level[] = [];
  for (const { path } of datasets) {
    const a4 = await zarr.open.v2(zarr.root(v4store).resolve(path), { kind: 'array' });
    const a5 = await zarr.open.v3(zarr.root(v5store).resolve(path), { kind: 'array' });
    v4.push((await zarr.get(a4)) as Level);
    v5.push((await zarr.get(a5)) as Level);
  }
  return { v4, v5, attrs: { v4: v4group.attrs, v5: v5group.attrs } };
}

describe('OME-Zarr v0.5 store of a volume result', () => {
  it('zarrita reads every level back with the v0.4 store\'s shapes and values', async () => {
    addDynamicSpecimen(host.app, 'sized', 'sized_volume');
    const params = encodeURIComponent(JSON.stringify({ depth: 130, height: 200, width: 90, dtype: 'uint16' }));
    const id = await resultIdOf(`/api/specimens/sized/data?params=${params}&room_id=${room()}`);
    const { v4, v5, attrs } = await levelsOf(id);
    expect(v5.length).toBeGreaterThanOrEqual(3);
    for (const [i, level] of v5.entries()) {
      expect(level.shape, `level ${i}`).toEqual(v4[i]!.shape);
      expect(Array.from(level.data).every((v, k) => v === v4[i]!.data[k]), `level ${i}`).toBe(true);
    }
    const ome = (attrs.v5 as { ome: { version: string; multiscales: { datasets: object[] }[]; omero: object } }).ome;
    expect(ome.version).toBe('0.5');
    expect(ome.multiscales[0]!.datasets).toEqual((attrs.v4 as { multiscales: { datasets: object[] }[] }).multiscales[0]!.datasets);
    expect(ome.omero).toBeDefined();

    const doc = await (await fetch(`${host.url}/api/results/${id}.ome.zarr/0/zarr.json`)).json();
    expect(doc).toMatchObject({ zarr_format: 3, node_type: 'array', shape: [130, 200, 90], data_type: 'uint16' });
    expect(doc.codecs[0].name).toBe('sharding_indexed');
    expect(doc.codecs[0].configuration.chunk_shape.every((n: number) => n <= 64)).toBe(true);
    expect(doc.codecs[0].configuration.codecs.map((c: { name: string }) => c.name)).toEqual(['bytes', 'zstd']);
    expect((await fetch(`${host.url}/api/results/${id}.ome.zarr/zarr.json`)).status).toBe(200);
    // The v0.4 store answers where it always has.
    expect((await fetch(`${host.url}/api/results/${id}.zarr/.zgroup`)).status).toBe(200);
  });

  it('answers Range: 206 for part of a shard, 416 past its end', async () => {
    const params = encodeURIComponent(JSON.stringify({ depth: 20, height: 30, width: 40, dtype: 'uint16' }));
    const id = await resultIdOf(`/api/specimens/sized/data?params=${params}&room_id=${room()}`);
    const shardUrl = `${host.url}/api/results/${id}.ome.zarr/0/c/0/0/0`;
    const whole = new Uint8Array(await (await fetch(shardUrl)).arrayBuffer());
    const part = await fetch(shardUrl, { headers: { range: 'bytes=-16' } });
    expect(part.status).toBe(206);
    expect(new Uint8Array(await part.arrayBuffer())).toEqual(whole.subarray(whole.length - 16));
    const past = await fetch(shardUrl, { headers: { range: `bytes=${whole.length}-` } });
    expect(past.status).toBe(416);
    expect((await fetch(`${host.url}/api/results/${id}.ome.zarr/0/c/9/0/0`)).status).toBe(404);
  });

  it('a labels volume is an NGFF label image, its ids as they are', async () => {
    const put = await host.app.inject({ method: 'PUT', url: '/api/specimens/seg', payload: { remote: 'lab/seg.ome.zarr' } });
    expect(put.statusCode, put.body).toBe(201);
    const id = await resultIdOf('/api/specimens/seg/data');
    const { v4, v5, attrs } = await levelsOf(id);
    const ome = (attrs.v5 as { ome: Record<string, unknown> }).ome;
    expect(ome['image-label']).toBeDefined();
    expect(ome.omero).toBeUndefined();
    expect(Array.from(v5[0]!.data)).toEqual(Array.from(v4[0]!.data));
    expect(new Set(Array.from(v5[0]!.data)).size).toBeLessThanOrEqual(5);
  });
});
