/**
 * The multi-resolution meshes of a published labels volume, read over HTTP by a reader written
 * from Neuroglancer's documentation of the format (multilod-reader.ts), not from the writer:
 * `info`, every segment's manifest and every fragment's Draco header and contents. Levels hold
 * about a quarter of the triangles of the one below, no fragment above level 0 has a triangle
 * across its 2 × 2 × 2 split, positions lie within their cells and, placed by the transform,
 * on the segment's voxels; a `Range` past the end is 416, an unknown segment, a result that is
 * not labels and a mesh within `--mesh-lod-triangles` are 404.
 */
import { describe, expect, it } from 'vitest';
import { encodeNpy } from '../../core/formats/npy/encode-npy.ts';
import { parseGlb } from '../../core/formats/glb/parse-glb.ts';
import { addDynamicSpecimen, createTestApp } from '../helpers/create-test-app.ts';
import { waitFor } from '../helpers/wait-for.ts';
import type { RoomScene } from '../../core/wire/scene-types.ts';
import { decodeFragment, readDracoHeader, readInfo, readManifest, zBefore, type Manifest } from './multilod-reader.ts';

const N = 112;
/** Three blobs of labels 3, 7 and 200 (a large wavy one, a small ball, a flat slab). */
function blobs(): Uint8Array {
  const data = new Uint8Array(N * N * N);
  for (let z = 0; z < N; z++)
    for (let y = 0; y < N; y++)
      for (let x = 0; x < N; x++) {
        const at = (z * N + y) * N + x;
        if (Math.hypot(x - 56, y - 56, z - 56) + 3 * Math.sin(x / 4) * Math.cos(y / 5) < 50) data[at] = 3;
        if (Math.hypot(x - 10, y - 10, z - 10) < 6) data[at] = 7;
        if (z >= 104 && z < 108 && x < 40 && y < 30) data[at] = 200;
      }
  return data;
}

const SPACING = [2, 0.5, 0.5];
const ORIGIN = [100, -5, 7];

async function publishedLabels() {
  const host = await createTestApp({ meshLodTriangles: 5000 });
  const npy = encodeNpy({ shape: [N, N, N], dtype: 'uint8', data: blobs() } as never);
  const put = await host.inject({
    method: 'PUT',
    url: `/api/specimens/seg?filename=seg.npy&role=labels&spacing=${SPACING.join(',')}&origin=${ORIGIN.join(',')}`,
    headers: { 'content-type': 'application/octet-stream' },
    payload: Buffer.from(npy),
  });
  expect(put.statusCode, put.body).toBe(201);
  const data = await host.inject({ url: '/api/specimens/seg/data' });
  expect(data.statusCode, data.body).toBe(200);
  return { host, id: String(data.headers['x-result-id']) };
}

describe('multi-resolution meshes of a labels result', () => {
  it('reads info, every manifest and every fragment as the format documents them', async () => {
    const { host, id } = await publishedLabels();
    const base = `/api/results/${id}/meshes`;
    const infoAnswer = await host.inject({ url: `${base}/info` });
    expect(infoAnswer.statusCode, infoAnswer.body).toBe(200);
    expect(infoAnswer.headers['cache-control']).toMatch(/immutable/);
    const info = readInfo(infoAnswer.json());
    // Voxel (x, y, z) into physical units: the spacing and origin, x first.
    expect(info.transform).toEqual([0.5, 0, 0, 7, 0, 0.5, 0, -5, 0, 0, 2, 100]);
    const steps = 2 ** info.quantizationBits - 1;
    for (const segment of [3, 7, 200]) {
      const manifestAnswer = await host.inject({ url: `${base}/${segment}.index` });
      expect(manifestAnswer.statusCode).toBe(200);
      const manifest = readManifest(manifestAnswer.rawPayload);
      const data = (await host.inject({ url: `${base}/${segment}` })).rawPayload;
      const sizes = manifest.levels.flatMap((level) => level.sizes);
      expect(sizes.reduce((a, b) => a + b, 0)).toBe(data.byteLength);
      const triangles: number[] = [];
      let offset = 0;
      for (const [lod, level] of manifest.levels.entries()) {
        for (let i = 1; i < level.positions.length; i++) expect(zBefore(level.positions[i - 1]!, level.positions[i]!)).toBe(true);
        let count = 0;
        for (const [i, size] of level.sizes.entries()) {
          const bytes = data.subarray(offset, offset + size);
          offset += size;
          const header = readDracoHeader(bytes);
          expect(header).toMatchObject({ major: 2, minor: 2, geometry: 1 });
          const { positions, indices } = await decodeFragment(bytes);
          count += indices.length / 3;
          expect(Math.min(...positions)).toBeGreaterThanOrEqual(0);
          expect(Math.max(...positions)).toBeLessThanOrEqual(steps);
          if (lod > 0) expect(crossesSplit(positions, indices, steps)).toBe(false);
          checkOnVoxels(positions, manifest, lod, level.positions[i]!, steps, info.transform);
        }
        triangles.push(count);
      }
      for (let lod = 1; lod < triangles.length; lod++) {
        expect(triangles[lod]! / triangles[lod - 1]!).toBeGreaterThan(0.15);
        expect(triangles[lod]! / triangles[lod - 1]!).toBeLessThan(0.4);
      }
      if (triangles[0]! > 65536) {
        const bytesOf = (lod: number) => manifest.levels[lod]!.sizes.reduce((a, b) => a + b, 0);
        expect(bytesOf(manifest.levels.length - 1)).toBeLessThanOrEqual(bytesOf(0) / 16);
      }
    }
  });

  it('bundles segments\' sidecars and coarsest GLBs as their own files say, 404 past the list', async () => {
    const { host, id } = await publishedLabels();
    const base = `/api/results/${id}/meshes`;
    const bundle = await host.inject({ url: `${base}/coarse/0` });
    expect(bundle.statusCode, bundle.body).toBe(200);
    expect(bundle.headers['cache-control']).toMatch(/immutable/);
    // A uint32 length, the sidecars as one JSON array in the list's order, then their coarsest GLBs in order.
    const bytes = bundle.rawPayload;
    const length = bytes.readUInt32LE(0);
    const sidecars = JSON.parse(bytes.subarray(4, 4 + length).toString()) as { segment: number; coarsest: { glb: string; bytes: number }[] }[];
    const listed = ((await host.inject({ url: `${base}/segments.json` })).json() as { segments: { id: number }[] }).segments;
    expect(sidecars.map((s) => s.segment)).toEqual(listed.map((s) => s.id));
    let at = 4 + length;
    for (const sidecar of sidecars) {
      expect(sidecar).toEqual((await host.inject({ url: `${base}/${sidecar.segment}.json` })).json());
      for (const fragment of sidecar.coarsest) {
        expect(bytes.subarray(at, (at += fragment.bytes))).toEqual((await host.inject({ url: `${base}/${fragment.glb}` })).rawPayload);
      }
    }
    expect(at).toBe(bytes.byteLength);
    expect((await host.inject({ url: `${base}/coarse/1` })).statusCode).toBe(404);
  });

  it('answers ranges, and 404s and 416 where the source has nothing', async () => {
    const { host, id } = await publishedLabels();
    const base = `/api/results/${id}/meshes`;
    const whole = (await host.inject({ url: `${base}/7` })).rawPayload;
    const part = await host.inject({ url: `${base}/7`, headers: { range: 'bytes=2-9' } });
    expect(part.statusCode).toBe(206);
    expect(part.rawPayload).toEqual(whole.subarray(2, 10));
    const past = await host.inject({ url: `${base}/7`, headers: { range: `bytes=${whole.byteLength}-` } });
    expect(past.statusCode).toBe(416);
    // The page's sidecars: the levels and the coarsest fragments, then each level's; each fragment a GLB of its triangles.
    type Entry = { level: number; triangles: number; glb: string; box: number[] };
    const sidecar = (await host.inject({ url: `${base}/7.json` })).json() as { levels: number; level_fragments: number[]; coarsest: Entry[] };
    expect(sidecar.coarsest).toHaveLength(sidecar.level_fragments[sidecar.levels - 1]!);
    for (let level = 0; level < sidecar.levels; level++) {
      const fragments = ((await host.inject({ url: `${base}/7/${level}.json` })).json() as { fragments: Entry[] }).fragments;
      expect(fragments).toHaveLength(sidecar.level_fragments[level]!);
      for (const fragment of fragments) {
        const glb = await host.inject({ url: `${base}/${fragment.glb}` });
        expect(glb.headers['content-type']).toBe('model/gltf-binary');
        const mesh = await parseGlb(glb.rawPayload);
        expect(mesh.type === 'mesh' && mesh.indices.length / 3).toBe(fragment.triangles);
        // Placed in physical units: voxel (10, 10, 10) of a ball of radius 6 lies near x = 7 + 10 × 0.5.
        if (mesh.type === 'mesh') for (let v = 0; v < mesh.vertices.length; v += 3) expect(Math.abs(mesh.vertices[v]! - 12)).toBeLessThan(4);
      }
    }
    expect((await host.inject({ url: `${base}/7/${sidecar.levels}.json` })).statusCode).toBe(404);
    expect((await host.inject({ url: `${base}/8.index` })).statusCode).toBe(404);
    // Beside the labels in their OME-Zarr store, as the NGFF mesh proposal lays them out.
    const group = await host.inject({ url: `/api/results/${id}.zarr/meshes/zarr.json` });
    expect(group.json()).toMatchObject({ zarr_format: 3, attributes: { ome: { mesh: { type: 'neuroglancer_multilod_draco', source: { labels: '../' } } } } });
    const inStore = await host.inject({ url: `/api/results/${id}.zarr/meshes/7.index` });
    expect(inStore.statusCode).toBe(200);
    expect(inStore.rawPayload).toEqual((await host.inject({ url: `${base}/7.index` })).rawPayload);
    expect((await host.inject({ url: `${base}/nothing` })).statusCode).toBe(404);
    addDynamicSpecimen(host, 'dense', 'dense_mesh');
    // A /data answer says where its result's levels are, and only when it has them (a viewer asks for no levels to find out).
    const levelsHeader = (answer: { headers: Record<string, unknown> }) => answer.headers['vitrine-mesh-levels'];
    expect(levelsHeader(await host.inject({ url: '/api/specimens/seg/data?max_dim=8' }))).toBe(`/api/results/${id}/meshes/`);
    const meshId = async (triangles: number) => {
      const answer = await host.inject({ url: `/api/specimens/dense/data?params=${JSON.stringify({ triangles })}` });
      const resultId = String(answer.headers['x-result-id']);
      expect(levelsHeader(answer)).toBe(triangles > 5000 ? `/api/results/${resultId}/meshes/` : undefined);
      return resultId;
    };
    const small = await host.inject({ url: `/api/results/${await meshId(2000)}/meshes/info` });
    expect(small.statusCode).toBe(404);
    expect(small.json().code).toBe('SPC_ERR_NO_MESH_LEVELS');
    // A mesh over the bound: its one surface is segment 1.
    const large = `/api/results/${await meshId(20000)}/meshes`;
    expect(readInfo((await host.inject({ url: `${large}/info` })).json()).transform).toEqual([1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0]);
    expect(readManifest((await host.inject({ url: `${large}/1.index` })).rawPayload).levels.length).toBeGreaterThan(1);
    expect((await host.inject({ url: `${large}/2.index` })).statusCode).toBe(404);
    // A room's layers say the same of their results.
    const layers = [
      { id: 'seg', source: { specimen: 'seg' }, kind: 'labels' },
      { id: 'small', source: { specimen: 'dense', params: { triangles: 2000 } } },
      { id: 'large', source: { specimen: 'dense', params: { triangles: 20000 } } },
    ];
    expect((await host.inject({ method: 'PUT', url: '/api/rooms/levels/scene', payload: { layers } })).statusCode).toBe(200);
    const shown = await waitFor(async () => {
      const scene = (await host.inject({ url: '/api/rooms/levels/scene' })).json() as RoomScene;
      return scene.layers.every((layer) => layer.result) ? scene.layers : undefined;
    }, 'the layers to be computed');
    expect(shown.map((layer) => layer.result!.levels)).toEqual([true, undefined, true]);
  });
});

/** Whether a triangle has corners on both sides of a middle plane (the 2 × 2 × 2 split). */
function crossesSplit(positions: Int32Array, indices: Uint32Array, steps: number): boolean {
  const split = Math.floor(steps / 2) + 1;
  for (let t = 0; t < indices.length; t += 3) {
    for (let k = 0; k < 3; k++) {
      const values = [0, 1, 2].map((j) => positions[indices[t + j]! * 3 + k]!);
      if (values.some((v) => v < split) && values.some((v) => v > split)) return true;
    }
  }
  return false;
}

/**
 * Every vertex, placed as the documentation says and then by the transform, lies in the
 * volume's extent. The bounds are asserted on the lowest and highest coordinate of the fragment
 * (the same check as one per vertex, without an assertion per coordinate of ~10^5 vertices).
 */
function checkOnVoxels(positions: Int32Array, manifest: Manifest, lod: number, cell: number[], steps: number, transform: number[]): void {
  let lowest = Infinity;
  let highest = -Infinity;
  for (let v = 0; v < positions.length; v += 3) {
    for (let k = 0; k < 3; k++) {
      const stored = manifest.gridOrigin[k]! + manifest.vertexOffsets[lod]![k]! + manifest.chunkShape[k]! * 2 ** lod * (cell[k]! + positions[v + k]! / steps);
      lowest = Math.min(lowest, stored);
      highest = Math.max(highest, stored);
    }
  }
  // Voxel coordinates: within the volume, half a voxel of surface past its last centre.
  if (positions.length === 0) return;
  expect(lowest).toBeGreaterThanOrEqual(-1);
  expect(highest).toBeLessThanOrEqual(N);
  for (let k = 0; k < 3; k++) expect(transform[k * 4 + k]).toBeGreaterThan(0);
}
