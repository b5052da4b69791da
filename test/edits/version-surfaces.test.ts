/**
 * An edited version's surfaces are read from its region, its voxels never made whole, over real
 * HTTP: after an erase and a split, a HEAD of `.../labels?version=V` names the version, and the
 * changed and new segments' sidecars, coarsest GLB fragments and Draco files are served under
 * that id while `/metrics` counts no version made (`vitrine_labels_versions_made`). Then the
 * version is read whole (the count goes to 1): its segment list (ids, voxels, boxes) is the one
 * the test finds in those voxels with its own walk, and each changed segment's files are those
 * of a fresh build from the whole version's voxels.
 */
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../core/app.ts';
import { decodeEnvelope, type DecodedVolume } from '../../core/envelope/decode-envelope.ts';
import { runLodsTask } from '../../core/meshes/run-lods-task.ts';
import type { StoredResult } from '../../core/results/stored-result.ts';
import { room } from '../helpers/create-test-app.ts';
import { fixturePluginsDir } from '../helpers/fixture-plugins.ts';
import { makeSpecimensDir } from '../helpers/specimens-dir.ts';

const SIZE = 40;
const BLOBS = { function: 'label_blobs', params: { size: SIZE, count: 6, dtype: 'uint16', stride: 100 } };
/** The segment erased in part, and the one split in two. */
const [ERASED, SPLIT] = [100, 300];

/** Each id's voxel count and first and last voxel (z, y, x), found by the test's own walk. */
function segmentsOf(data: ArrayLike<number>): Map<number, { voxels: number; box: number[] }> {
  const out = new Map<number, { voxels: number; box: number[] }>();
  for (let i = 0; i < data.length; i++) {
    const id = data[i]!;
    if (id === 0) continue;
    let seen = out.get(id);
    if (!seen) out.set(id, (seen = { voxels: 0, box: [SIZE, SIZE, SIZE, -1, -1, -1] }));
    seen.voxels++;
    [Math.floor(i / (SIZE * SIZE)), Math.floor(i / SIZE) % SIZE, i % SIZE].forEach((v, axis) => {
      seen.box[axis] = Math.min(seen.box[axis]!, v);
      seen.box[axis + 3] = Math.max(seen.box[axis + 3]!, v);
    });
  }
  return out;
}

describe('surfaces of an edited version read by region', () => {
  let app: FastifyInstance;
  let url: string;
  let r: string;

  const made = async () => {
    const text = await (await fetch(`${url}/metrics`)).text();
    return Number(/^vitrine_labels_versions_made (\d+)$/m.exec(text)![1]);
  };
  const edit = async (body: object) => {
    const request = { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) };
    const answer = await fetch(`${url}/api/rooms/${r}/layers/seg/edits`, request);
    expect(answer.status).toBe(201);
    return (await answer.json()) as { version: number; segments: { changed: number[]; new: number[] } };
  };
  const get = async (path: string) => {
    const answer = await fetch(`${url}${path}`);
    expect(answer.status, path).toBe(200);
    return { bytes: Buffer.from(await answer.arrayBuffer()), etag: answer.headers.get('etag') };
  };

  beforeAll(async () => {
    app = await createApp({ pluginsDir: await fixturePluginsDir(), specimensDir: await makeSpecimensDir(), logLevel: false, poolSize: 2, viewer: false });
    url = await app.listen({ host: '127.0.0.1', port: 0 });
    r = room();
    const layer = await fetch(`${url}/api/rooms/${r}/layers`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ id: 'seg', source: BLOBS, kind: 'labels' }),
    });
    expect(layer.status).toBe(201);
  });
  afterAll(() => app.close());

  it('serves changed and new segments’ files without making the version, equal to a whole build', async () => {
    const base = await fetch(`${url}/api/rooms/${r}/layers/seg/labels`);
    const baseVolume = decodeEnvelope(new Uint8Array(await base.arrayBuffer())) as DecodedVolume;
    const before = segmentsOf(baseVolume.data);
    const [z0, y0, x0, z1, y1, x1] = before.get(ERASED)!.box;
    const center = [Math.round((z0! + z1!) / 2), Math.round((y0! + y1!) / 2), Math.round((x0! + x1!) / 2)];
    expect((await edit({ op: 'paint', label: 0, center, radius: 2, only: ERASED })).segments.changed).toEqual([ERASED]);
    // Two seeds at the split segment's first and last voxels.
    const [from, to] = [Array.from(baseVolume.data).indexOf(SPLIT), Array.from(baseVolume.data).lastIndexOf(SPLIT)];
    const voxel = (i: number) => [Math.floor(i / (SIZE * SIZE)), Math.floor(i / SIZE) % SIZE, i % SIZE];
    const split = await edit({ op: 'split', segment: SPLIT, seeds: [[voxel(from)], [voxel(to)]] });
    expect(split.version).toBe(2);
    const [fresh] = split.segments.new;
    expect(fresh).toBeGreaterThan(600);

    // A HEAD names the version, with no body and nothing made.
    const head = await fetch(`${url}/api/rooms/${r}/layers/seg/labels?version=2`, { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(head.headers.get('x-labels-version')).toBe('2');
    const id = head.headers.get('x-result-id')!;
    expect(id).toMatch(/^[0-9a-f]{64}$/);
    expect((await head.arrayBuffer()).byteLength).toBe(0);

    const files = async (segment: number) => {
      const sidecar = await get(`/api/results/${id}/meshes/${segment}.json`);
      const { coarsest } = JSON.parse(sidecar.bytes.toString()) as { coarsest: { glb: string }[] };
      return { coarsest: await get(`/api/results/${id}/meshes/${coarsest[0]!.glb}`), draco: await get(`/api/results/${id}/meshes/${segment}`) };
    };
    const served = new Map<number, Awaited<ReturnType<typeof files>>>();
    for (const segment of [ERASED, SPLIT, fresh!]) served.set(segment, await files(segment));
    const list = JSON.parse((await get(`/api/results/${id}/meshes/segments.json`)).bytes.toString()) as {
      transform: number[];
      segments: { id: number; voxels: number; box: number[] }[];
    };
    expect(await made()).toBe(0);

    // The version made whole, now: counted, and what the files must agree with.
    const whole = await fetch(`${url}/api/rooms/${r}/layers/seg/labels?version=2`);
    expect(whole.headers.get('x-result-id')).toBe(id);
    const volume = decodeEnvelope(new Uint8Array(await whole.arrayBuffer())) as DecodedVolume;
    expect(await made()).toBe(1);
    const segments = segmentsOf(volume.data);
    expect(list.segments.map((s) => s.id)).toEqual([...segments.keys()].sort((a, b) => a - b));
    const t = list.transform;
    for (const listed of list.segments) {
      const { voxels, box } = segments.get(listed.id)!;
      expect(listed.voxels, `segment ${listed.id}`).toBe(voxels);
      const physical = [0, 1, 2].flatMap((k) => [t[k * 4 + 3]! + t[k * 4 + k]! * (box[2 - k]! - 0.5), t[k * 4 + 3]! + t[k * 4 + k]! * (box[5 - k]! + 0.5)]);
      expect(listed.box, `segment ${listed.id}`).toEqual([physical[0], physical[2], physical[4], physical[1], physical[3], physical[5]]);
    }
    const { shape, dtype, data, spacing, origin } = volume;
    const stored = { type: 'volume', shape, dtype, data, spacing: spacing!, origin: origin! } as StoredResult & { type: 'volume' };
    // The erased segment's set is version 1's, which last changed it: tagged by that version's id.
    const first = (await fetch(`${url}/api/rooms/${r}/layers/seg/labels?version=1`, { method: 'HEAD' })).headers.get('x-result-id')!;
    for (const [segment, { draco }] of served) {
      const source = { kind: 'labels' as const, volume: stored, id: segment, box: segments.get(segment)!.box, triangles: 0 };
      const { lods } = await runLodsTask({ op: 'meshLods', source });
      expect(draco.bytes.equals(Buffer.from(lods.draco)), `segment ${segment}`).toBe(true);
      expect(draco.etag).toBe(`"${segment === ERASED ? first : id}.${segment}"`);
    }
    expect(await made()).toBe(1);

    // An earlier version, its index found once a later edit exists (written back where it wrote): its list too.
    const earlier = JSON.parse((await get(`/api/results/${first}/meshes/segments.json`)).bytes.toString()) as typeof list;
    const one = await fetch(`${url}/api/rooms/${r}/layers/seg/labels?version=1`);
    const oneSegments = segmentsOf((decodeEnvelope(new Uint8Array(await one.arrayBuffer())) as DecodedVolume).data);
    expect(earlier.segments.map((s) => [s.id, s.voxels])).toEqual([...oneSegments].sort(([a], [b]) => a - b).map(([sid, s]) => [sid, s.voxels]));
  });
});
