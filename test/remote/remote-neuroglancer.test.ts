/**
 * A room's Neuroglancer state reads a remote specimen (opened by its id as a layer's source) in
 * place: its image and labels layers point at the image's own store through the host
 * (`/api/specimens/{id}/zarr/`, every level), and what a reader gets through that URL is the
 * remote's own samples, for a v0.5 image with sharding (its shard index and inner chunks read by
 * `Range`) and a v0.4 label image; a level read reads only that level's keys from the remote.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as zarr from 'zarrita';
import type { RoomScene } from '../../core/wire/scene-types.ts';
import { fileTestApp, room } from '../helpers/create-test-app.ts';
import { waitFor } from '../helpers/wait-for.ts';
import { halved, samplesOf, startRemoteServer, writeV04, writeV05, type LevelData, type RemoteServer } from '../helpers/zarr-remote.ts';

let remote: RemoteServer;
const image: LevelData[] = [{ shape: [16, 16, 24], data: samplesOf('uint16', 16 * 16 * 24, 7) }];
image.push(halved(image[0]!, 'zyx'));
const labels: LevelData[] = [{ shape: [8, 12, 12], data: samplesOf('uint8', 8 * 12 * 12, 3).map((v) => v % 5) }];
labels.push(halved(labels[0]!, 'zyx'));

beforeAll(async () => {
  remote = await startRemoteServer();
  const cells = { path: 'cells.ome.zarr', axes: 'zyx', dtype: 'uint16' as const, chunks: [4, 4, 4], compression: 'zstd' as const, scale: [2, 1, 1] };
  await writeV05(remote.files, { ...cells, levels: image }, [2, 2, 2]);
  const seg = { path: 'seg.ome.zarr', axes: 'zyx', dtype: 'uint8' as const, chunks: [4, 4, 4], compression: 'gzip' as const, scale: [1, 1, 1], labels: true };
  await writeV04(remote.files, { ...seg, levels: labels }, '/');
});
afterAll(() => remote?.close());

const host = fileTestApp(async () => ({ remotes: { lab: remote.url } }));

type NgLayer = { name: string; type: string; source: string | [string, { url: string }] };

/** The room's Neuroglancer state, fetched as a viewer fetches it (over HTTP, so its URLs name this host). */
async function stateOf(r: string): Promise<NgLayer[]> {
  const answer = await fetch(`${host.url}/api/rooms/${r}/neuroglancer`);
  expect(answer.status).toBe(200);
  return ((await answer.json()) as { layers: NgLayer[] }).layers;
}

const volumeUrl = (layer: NgLayer) => (Array.isArray(layer.source) ? layer.source[0] : layer.source);

describe('the Neuroglancer state of a remote specimen', () => {
  it('points image and labels layers at the image read in place, which gives the remote\'s own samples', async () => {
    for (const [id, reference] of [['ng-cells', 'lab/cells.ome.zarr'], ['ng-seg', 'lab/seg.ome.zarr']]) {
      const put = await host.app.inject({ method: 'PUT', url: `/api/specimens/${id}`, payload: { remote: reference } });
      expect(put.statusCode, put.body).toBe(201);
    }
    const r = room();
    const layers = [{ id: 'cells', source: { specimen: 'ng-cells' } }, { id: 'seg', source: { specimen: 'ng-seg' }, kind: 'labels' }];
    const put = await host.app.inject({ method: 'PUT', url: `/api/rooms/${r}/scene`, payload: { layers } });
    expect(put.statusCode, put.body).toBeLessThan(300);

    // Listed before the host has read a level for the layers, and after.
    expect((await stateOf(r)).map(volumeUrl)).toEqual([`zarr://${host.url}/api/specimens/ng-cells/zarr/`, `zarr://${host.url}/api/specimens/ng-seg/zarr/`]);
    await waitFor(async () => {
      const scene = (await host.app.inject({ url: `/api/rooms/${r}/scene` })).json() as RoomScene;
      return scene.layers.every((layer) => layer.result) || undefined;
    }, 'both layers shown');
    const state = await stateOf(r);
    const cells = state.find((layer) => layer.name === 'cells')!;
    const seg = state.find((layer) => layer.name === 'seg')!;
    expect(cells.type).toBe('image');
    expect(seg.type).toBe('segmentation');
    expect(volumeUrl(cells)).toBe(`zarr://${host.url}/api/specimens/ng-cells/zarr/`);
    expect(volumeUrl(seg)).toBe(`zarr://${host.url}/api/specimens/ng-seg/zarr/`);

    // Each level read through the URL the state names is the remote's own, and reads only its own keys.
    const cellsStore = new zarr.FetchStore(volumeUrl(cells).replace(/^zarr:\/\//, '').replace(/\/$/, ''));
    for (const [level, expected] of image.entries()) {
      remote.reset();
      const got = await zarr.get(await zarr.open.v3(zarr.root(cellsStore).resolve(String(level)), { kind: 'array' }));
      expect(got.shape).toEqual(expected.shape);
      expect(Array.from(got.data as Uint16Array)).toEqual(Array.from(expected.data));
      expect(remote.sent.paths.every((path) => path.startsWith(`cells.ome.zarr/${level}/`)), remote.sent.paths.join(' ')).toBe(true);
    }
    const segStore = new zarr.FetchStore(volumeUrl(seg).replace(/^zarr:\/\//, '').replace(/\/$/, ''));
    for (const [level, expected] of labels.entries()) {
      const got = await zarr.get(await zarr.open.v2(zarr.root(segStore).resolve(String(level)), { kind: 'array', attrs: false }));
      expect(Array.from(got.data as Uint8Array)).toEqual(Array.from(expected.data));
    }
  });

  it('answers a shard\'s ranges as the remote holds them, and nothing outside the image\'s keys', async () => {
    const put = await host.app.inject({ method: 'PUT', url: '/api/specimens/ng-raw', payload: { remote: 'lab/cells.ome.zarr' } });
    expect(put.statusCode, put.body).toBeLessThan(300);
    const shard = remote.files.get('cells.ome.zarr/0/c/0/0/0')!;
    const base = `${host.url}/api/specimens/ng-raw/zarr`;
    const tail = await fetch(`${base}/0/c/0/0/0`, { headers: { range: 'bytes=-128' } });
    expect(tail.status).toBe(206);
    expect(tail.headers.get('content-range')).toBe(`bytes ${shard.length - 128}-${shard.length - 1}/${shard.length}`);
    expect(Buffer.from(await tail.arrayBuffer())).toEqual(Buffer.from(shard.subarray(shard.length - 128)));
    const middle = await fetch(`${base}/0/c/0/0/0`, { headers: { range: 'bytes=10-19' } });
    expect(middle.status).toBe(206);
    expect(Buffer.from(await middle.arrayBuffer())).toEqual(Buffer.from(shard.subarray(10, 20)));
    const whole = await fetch(`${base}/0/c/0/0/0`);
    expect(Buffer.from(await whole.arrayBuffer())).toEqual(Buffer.from(shard));
    const root = await fetch(`${base}/zarr.json`);
    expect(root.headers.get('content-type')).toMatch(/application\/json/);

    for (const key of ['0/c/9/9/9', 'other.txt', '0/../seg.ome.zarr/.zattrs', '2/zarr.json']) {
      const answer = await fetch(`${base}/${key}`);
      expect(answer.status, key).toBe(404);
    }
    expect((await fetch(`${host.url}/api/specimens/no-such/zarr/zarr.json`)).status).toBe(404);
  });
});
