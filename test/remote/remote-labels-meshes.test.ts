/**
 * Labels read from a remote (an NGFF label image) get their surfaces and multi-resolution
 * meshes as any labels result does, made from the level within --max-remote-bytes: the mesh
 * source answers every kind of key in that level's physical units, `/data?segment=N` is the
 * label's surface, and a room's labels layer has levels that its Neuroglancer state reads
 * beside the volume (the image itself, read in place).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RoomScene } from '../../core/wire/scene-types.ts';
import { fileTestApp, room } from '../helpers/create-test-app.ts';
import { waitFor } from '../helpers/wait-for.ts';
import { startRemoteServer, writeV05, type RemoteServer } from '../helpers/zarr-remote.ts';

/** A ball of label 4 (radius n/3) in a cube of side `n`. */
function ball(n: number): Uint8Array<ArrayBuffer> {
  const data = new Uint8Array(n * n * n);
  const c = n / 2;
  for (let z = 0; z < n; z++)
    for (let y = 0; y < n; y++) for (let x = 0; x < n; x++) if (Math.hypot(x - c, y - c, z - c) < n / 3) data[(z * n + y) * n + x] = 4;
  return data;
}

let remote: RemoteServer;
beforeAll(async () => {
  remote = await startRemoteServer();
  const spec = { path: 'seg.ome.zarr', axes: 'zyx', dtype: 'uint8' as const, chunks: [8, 8, 8], compression: 'zstd' as const, labels: true };
  const scale = [0.5, 0.5, 0.5];
  await writeV05(remote.files, { ...spec, scale, levels: [{ shape: [48, 48, 48], data: ball(48) }, { shape: [24, 24, 24], data: ball(24) }] }, [1, 1, 3]);
});
afterAll(() => remote?.close());

// Level 0 (48³ bytes) is over the bound: level 1 (24³, a micrometre a voxel) is what everything reads.
const host = fileTestApp(async () => ({ remotes: { lab: remote.url }, maxRemoteBytes: 48 ** 3 - 1 }));

describe('a remote labels specimen', () => {
  it('has surfaces and multi-resolution meshes from the level within the bound', async () => {
    const put = await host.app.inject({ method: 'PUT', url: '/api/specimens/seg', payload: { remote: 'lab/seg.ome.zarr' } });
    expect(put.statusCode, put.body).toBe(201);
    expect(put.json().labels).toBe(true);
    const data = await host.app.inject({ url: '/api/specimens/seg/data' });
    expect(data.statusCode, data.body.slice(0, 200)).toBe(200);
    expect(data.headers['x-remote-level']).toBe('1');
    const id = String(data.headers['x-result-id']);
    expect(data.headers['vitrine-mesh-levels']).toBe(`/api/results/${id}/meshes/`);

    const base = `/api/results/${id}/meshes`;
    for (const key of ['segments.json', '4.index', '4', '4/0.json', '4/0/0.glb']) {
      const answer = await host.app.inject({ url: `${base}/${key}` });
      expect(answer.statusCode, `${key}: ${answer.body.slice(0, 200)}`).toBe(200);
      expect(answer.rawPayload.byteLength, key).toBeGreaterThan(0);
    }
    // The transform takes level 1's voxels (1 µm each) to physical units.
    const info = (await host.app.inject({ url: `${base}/info` })).json() as { '@type': string; transform: number[] };
    expect(info['@type']).toBe('neuroglancer_multilod_draco');
    expect([info.transform[0], info.transform[5], info.transform[10]]).toEqual([1, 1, 1]);

    // A reader asking for a size (a headset's profile) gets no finer a level than the bound allows.
    const sized = await host.app.inject({ url: '/api/specimens/seg/data?max_dim=64&format=npy' });
    expect(sized.headers['x-remote-level']).toBe('1');

    const surface = await host.app.inject({ url: '/api/specimens/seg/data?segment=4&format=obj' });
    expect(surface.statusCode, surface.body.slice(0, 200)).toBe(200);
    expect(surface.body).toMatch(/^v /m);
    expect(surface.body).toMatch(/^f /m);
  });

  it('shown as a room\'s labels layer has levels, and the Neuroglancer state reads its surfaces beside its volume', async () => {
    const r = room();
    const layers = [{ id: 'seg', source: { specimen: 'seg' }, kind: 'labels' }];
    const put = await host.app.inject({ method: 'PUT', url: `/api/rooms/${r}/scene`, payload: { layers } });
    expect(put.statusCode, put.body).toBeLessThan(300);
    const layerResult = async () => ((await host.app.inject({ url: `/api/rooms/${r}/scene` })).json() as RoomScene).layers[0]?.result ?? undefined;
    const shown = await waitFor(layerResult, 'the labels layer');
    expect(shown).toMatchObject({ levels: true });
    type State = { layers: { source: [string, { url: string }]; segments: string[] }[] };
    const state = (await host.app.inject({ url: `/api/rooms/${r}/neuroglancer` })).json() as State;
    const [volume, surfaces] = state.layers[0]!.source;
    // The volume is the image read in place (every level); the surfaces are those of the level the host read.
    expect(volume).toBe('zarr://http://localhost:80/api/specimens/seg/zarr/');
    expect(surfaces.url).toBe(`precomputed://http://localhost:80/api/results/${shown.result_id}/meshes`);
    expect(state.layers[0]!.segments).toEqual(['4']);
    const index = await host.app.inject({ url: `/api/results/${shown.result_id}/meshes/4.index` });
    expect(index.statusCode).toBe(200);
  });
});
