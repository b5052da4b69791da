/**
 * Every read of a labels layer's version works for an old version too, over real HTTP: with the
 * layer edited three times, versions 1 and 2 are read as `.../labels?version=V` (the envelope,
 * `format=npy`, a `max_dim` level) and through their own result's OME-Zarr stores (v0.4 and
 * v0.5: a region of level 0, and level 1), each compared voxel for voxel with what the test
 * works out itself: the edits applied to the base by its own loops, and every coarser sample the
 * most frequent non-zero id of its block (ties to the smaller id), by its own count.
 */
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as zarr from 'zarrita';
import { createApp } from '../../core/app.ts';
import { decodeEnvelope, type DecodedVolume } from '../../core/envelope/decode-envelope.ts';
import { room } from '../helpers/create-test-app.ts';
import { fixturePluginsDir } from '../helpers/fixture-plugins.ts';
import { makeSpecimensDir } from '../helpers/specimens-dir.ts';

const N = 80;
const BLOBS = { function: 'label_blobs', params: { size: N, count: 10, dtype: 'uint16', stride: 100 } };
const at = (z: number, y: number, x: number) => (z * N + y) * N + x;

/** The edits made, in order, and each one done to a copy of the voxels by the test's own loops. */
const EDITS: { body: Record<string, unknown>; apply(voxels: number[]): void }[] = [
  { body: { op: 'merge', segments: [100, 200] }, apply: (v) => v.forEach((id, i) => id === 200 && (v[i] = 100)) },
  { body: { op: 'paint', label: 9, center: [40, 34, 42], radius: 12 }, apply: (v) => ball(v, [40, 34, 42], 12, 9) },
  { body: { op: 'paint', label: 0, center: [42, 38, 42], radius: 9 }, apply: (v) => ball(v, [42, 38, 42], 9, 0) },
];

function ball(voxels: number[], [cz, cy, cx]: number[], r: number, label: number): void {
  for (let z = 0; z < N; z++)
    for (let y = 0; y < N; y++) for (let x = 0; x < N; x++) if ((z - cz!) ** 2 + (y - cy!) ** 2 + (x - cx!) ** 2 <= r * r) voxels[at(z, y, x)] = label;
}

/** Each sample of the level halved along every axis: its 2×2×2 block's most frequent non-zero id, ties to the smaller. */
function halved(voxels: readonly number[]): number[] {
  const h = N / 2;
  const out: number[] = [];
  for (let z = 0; z < h; z++)
    for (let y = 0; y < h; y++)
      for (let x = 0; x < h; x++) {
        const counts = new Map<number, number>();
        for (const [dz, dy, dx] of [0, 1, 2, 3, 4, 5, 6, 7].map((k) => [k >> 2, (k >> 1) & 1, k & 1]))
          counts.set(voxels[at(2 * z + dz!, 2 * y + dy!, 2 * x + dx!)]!, (counts.get(voxels[at(2 * z + dz!, 2 * y + dy!, 2 * x + dx!)]!) ?? 0) + 1);
        counts.delete(0);
        let best = 0;
        for (const [id, n] of counts) if (best === 0 || n > counts.get(best)! || (n === counts.get(best)! && id < best)) best = id;
        out.push(best);
      }
  return out;
}

/** Where `actual` first differs from `expected` (its length when longer or shorter), or -1: the same voxels. */
function firstDifference(actual: ArrayLike<number>, expected: readonly number[]): number {
  if (actual.length !== expected.length) return Math.min(actual.length, expected.length);
  for (let i = 0; i < expected.length; i++) if (actual[i] !== expected[i]) return i;
  return -1;
}

/** The values of a `.npy` file of little-endian uint16 in C order. */
function npyValues(bytes: Uint8Array): number[] {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const headerLength = view.getUint16(8, true);
  const header = new TextDecoder().decode(bytes.subarray(10, 10 + headerLength));
  expect(header).toContain("'descr': '<u2'");
  expect(header).toContain(`'shape': (${N}, ${N}, ${N})`);
  const start = 10 + headerLength;
  return Array.from({ length: (bytes.length - start) / 2 }, (_, k) => view.getUint16(start + 2 * k, true));
}

describe('reads of an old version of an edited labels layer', () => {
  let app: FastifyInstance;
  let url: string;
  let r: string;
  /** The test's own voxels of each version, 0 to 3. */
  const expected: number[][] = [];

  const labels = async (query: string) => {
    const response = await fetch(`${url}/api/rooms/${r}/layers/seg/labels${query}`);
    expect(response.status, query).toBe(200);
    return { bytes: new Uint8Array(await response.arrayBuffer()), headers: response.headers };
  };

  beforeAll(async () => {
    app = await createApp({ pluginsDir: await fixturePluginsDir(), specimensDir: await makeSpecimensDir(), logLevel: false, poolSize: 1, viewer: false });
    url = await app.listen({ host: '127.0.0.1', port: 0 });
    r = room();
    const post = (path: string, body: unknown) =>
      fetch(`${url}/api/rooms/${r}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    expect((await post('/layers', { id: 'seg', source: BLOBS, kind: 'labels' })).status).toBe(201);
    const base = decodeEnvelope((await labels('?version=0')).bytes) as DecodedVolume;
    expected.push(Array.from(base.data));
    for (const edit of EDITS) {
      expect((await post('/layers/seg/edits', edit.body)).status).toBe(201);
      const next = [...expected.at(-1)!];
      edit.apply(next);
      expected.push(next);
    }
    // The edits changed something each, and version 2 is no longer the current one.
    for (let v = 1; v <= EDITS.length; v++) expect(firstDifference(expected[v]!, expected[v - 1]!)).toBeGreaterThanOrEqual(0);
    expect((await labels('')).headers.get('x-labels-version')).toBe(String(EDITS.length));
  });
  afterAll(() => app.close());

  it.each([1, 2])('answers version %i as an envelope, as npy and at a max_dim level, voxel for voxel', async (v) => {
    const envelope = await labels(`?version=${v}`);
    expect(envelope.headers.get('x-labels-version')).toBe(String(v));
    expect(firstDifference((decodeEnvelope(envelope.bytes) as DecodedVolume).data, expected[v]!)).toBe(-1);
    expect(firstDifference(npyValues((await labels(`?version=${v}&format=npy`)).bytes), expected[v]!)).toBe(-1);
    const coarse = decodeEnvelope((await labels(`?version=${v}&max_dim=${N / 2}`)).bytes) as DecodedVolume;
    expect(coarse.shape).toEqual([N / 2, N / 2, N / 2]);
    expect(firstDifference(coarse.data, halved(expected[v]!))).toBe(-1);
  });

  it.each([1, 2])("serves version %i's own result as OME-Zarr v0.4 and v0.5: a region of level 0 and level 1, voxel for voxel", async (v) => {
    const id = (await labels(`?version=${v}`)).headers.get('x-result-id')!;
    const [z0, y0, x0, side] = [26, 20, 30, 36];
    const region: number[] = [];
    for (let z = z0; z < z0 + side; z++) for (let y = y0; y < y0 + side; y++) for (let x = x0; x < x0 + side; x++) region.push(expected[v]![at(z, y, x)]!);
    const coarse = halved(expected[v]!);
    for (const [store, v3] of [
      [`${url}/api/results/${id}.zarr`, false],
      [`${url}/api/results/${id}.ome.zarr`, true],
    ] as const) {
      const root = zarr.root(new zarr.FetchStore(store));
      const open = (path: string) => (v3 ? zarr.open.v3(root.resolve(path), { kind: 'array' }) : zarr.open.v2(root.resolve(path), { kind: 'array' }));
      const read = await zarr.get(await open('0'), [zarr.slice(z0, z0 + side), zarr.slice(y0, y0 + side), zarr.slice(x0, x0 + side)]);
      expect(read.shape, store).toEqual([side, side, side]);
      expect(firstDifference(read.data as ArrayLike<number>, region), store).toBe(-1);
      const level1 = await zarr.get(await open('1'));
      expect(firstDifference(level1.data as ArrayLike<number>, coarse), store).toBe(-1);
    }
  });
});
