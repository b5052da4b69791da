/**
 * A Godot headset gets a large surface through `/data` as the finest level of its octree that
 * fits `--headset-triangles`, assembled from the level set rather than simplified again: one
 * segment of a labels volume, every segment at once (painted), and a mesh result over
 * `--mesh-lod-triangles`; a surface that fits whole is made as before. A room's layer showing
 * a surface with levels says so, and so do a snapshot of the room and the room it is restored into.
 */
import { describe, expect, it } from 'vitest';
import { decodeEnvelope, type DecodedMesh } from '../../core/envelope/decode-envelope.ts';
import { encodeNpy } from '../../core/formats/npy/encode-npy.ts';
import { addDynamicSpecimen, createTestApp } from '../helpers/create-test-app.ts';
import { waitFor } from '../helpers/wait-for.ts';
import type { RoomScene } from '../../core/wire/scene-types.ts';

const GODOT = { 'user-agent': 'GodotEngine/4.3.stable.official (Linux)' };
const N = 64;

/** A large wavy ball (label 1) and a small cube (label 2). */
function labels(): Buffer {
  const data = new Uint8Array(N * N * N);
  for (let z = 0; z < N; z++)
    for (let y = 0; y < N; y++)
      for (let x = 0; x < N; x++) {
        if (Math.hypot(x - 32, y - 32, z - 32) + 2 * Math.sin(x / 3) * Math.cos(z / 4) < 28) data[(z * N + y) * N + x] = 1;
        if (x < 4 && y < 4 && z < 4) data[(z * N + y) * N + x] = 2;
      }
  return Buffer.from(encodeNpy({ shape: [N, N, N], dtype: 'uint8', data } as never));
}

interface Sidecar {
  level_triangles: number[];
}

describe('a Godot headset and levels of detail', () => {
  it('gets the finest level that fits --headset-triangles, for a segment, all of them and a large mesh', async () => {
    const host = await createTestApp({ headsetTriangles: 12000, meshLodTriangles: 20000 });
    const put = await host.inject({
      method: 'PUT',
      url: '/api/specimens/seg?filename=seg.npy&role=labels',
      headers: { 'content-type': 'application/octet-stream' },
      payload: labels(),
    });
    expect(put.statusCode, put.body).toBe(201);
    const id = String((await host.inject({ url: '/api/specimens/seg/data' })).headers['x-result-id']);
    const sidecar = (segment: number, result = id) => host.inject({ url: `/api/results/${result}/meshes/${segment}.json` }).then((r) => r.json() as Sidecar);
    const triangles = async (url: string) => {
      const answer = await host.inject({ url, headers: GODOT });
      expect(answer.statusCode, answer.body).toBe(200);
      return (decodeEnvelope(new Uint8Array(answer.rawPayload).buffer) as DecodedMesh).indices.length / 3;
    };
    const fitting = (levels: number[]) => levels.find((count) => count <= 12000)!;

    const one = await triangles('/api/specimens/seg/data?segment=1');
    const levels = (await sidecar(1)).level_triangles;
    expect(levels.length).toBeGreaterThanOrEqual(2);
    expect(levels[0]).toBeGreaterThan(12000);
    expect(levels[levels.length - 1]).toBeLessThanOrEqual(12000);
    expect(one).toBe(fitting(levels));

    // Every segment: each at the same level (the small cube has only its level 0).
    const small = (await sidecar(2)).level_triangles;
    const all = await triangles('/api/specimens/seg/data?segment=all');
    expect(all).toBeLessThanOrEqual(12000);
    expect(all).toBe(fitting(levels.map((count, level) => count + small[Math.min(level, small.length - 1)]!)));

    // A small segment fits whole: its surface as before (no level set needed).
    const cube = await triangles('/api/specimens/seg/data?segment=2');
    expect(cube).toBeGreaterThan(0);

    // The room's Neuroglancer state: the labels layer reads its surfaces beside its volume, every segment shown.
    await host.inject({ method: 'PUT', url: '/api/rooms/levels/scene', payload: { layers: [{ id: 'seg', source: { specimen: 'seg' }, kind: 'labels' }] } });
    const scene = async () => ((await host.inject({ url: '/api/rooms/levels/scene' })).json() as RoomScene).layers[0]?.result ?? undefined;
    await waitFor(scene, 'the labels layer to be computed');
    type State = { layers: { source: [string, { url: string }]; segments: string[] }[] };
    const state = (await host.inject({ url: '/api/rooms/levels/neuroglancer' })).json() as State;
    const [volume, surfaces] = state.layers[0]!.source;
    expect(volume).toMatch(new RegExp(`^zarr3://.*/api/results/${id}\\.ome\\.zarr/$`));
    expect(surfaces.url).toBe(`${volume.replace('zarr3://', 'precomputed://').replace(/\.ome\.zarr\/$/, '')}/meshes`);
    expect(state.layers[0]!.segments).toEqual(expect.arrayContaining(['1', '2']));

    // A mesh result over --mesh-lod-triangles: its one surface, segment 1.
    addDynamicSpecimen(host, 'dense', 'dense_mesh');
    const url = `/api/specimens/dense/data?params=${JSON.stringify({ triangles: 40000 })}`;
    const meshId = String((await host.inject({ url })).headers['x-result-id']);
    const meshLevels = (await sidecar(1, meshId)).level_triangles;
    expect(await triangles(url)).toBe(fitting(meshLevels));

    // The room's layer showing it says it has levels; so does a snapshot of the room, and the room it is restored into.
    const layers = [{ id: 'mesh', source: { specimen: 'dense', params: { triangles: 40000 } } }];
    await host.inject({ method: 'PUT', url: '/api/rooms/dense/scene', payload: { layers } });
    const shown = async (room: string) => ((await host.inject({ url: `/api/rooms/${room}/scene` })).json() as RoomScene).layers[0]?.result ?? undefined;
    expect(await waitFor(() => shown('dense'), 'the mesh layer to be computed')).toMatchObject({ result_id: meshId, levels: true });
    const taken = await host.inject({ method: 'POST', url: '/api/rooms/dense/snapshots', payload: {} });
    expect(taken.statusCode, taken.body).toBe(201);
    const snapshot = (taken.json() as { id: string }).id;
    const recorded = ((await host.inject({ url: `/api/snapshots/${snapshot}` })).json() as { scene: RoomScene }).scene.layers[0]!.result;
    expect(recorded).toMatchObject({ result_id: meshId, data_url: `/api/blobs/${meshId}`, levels: true });
    await host.inject({ method: 'PUT', url: '/api/rooms/restored/scene', payload: { snapshot } });
    expect(await waitFor(() => shown('restored'), 'the restored layer')).toMatchObject({ result_id: meshId, levels: true });
  });
});
