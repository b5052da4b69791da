/**
 * Remote OME-Zarr images published in place and delivered: one image per format (v0.4 with
 * `.` and `/` chunk keys, v0.5 with and without sharding), codec (blosc, zstd, gzip, none),
 * dtype and axes, written by hand from the Zarr specifications into a loopback remote. Every
 * sample delivered is compared with the remote's own, at level 0 and at level 1.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DType } from '../../core/envelope/dtypes.ts';
import { parseNpy } from '../../core/formats/npy/parse-npy.ts';
import { fileTestApp } from '../helpers/create-test-app.ts';
import { halved, samplesOf, startRemoteServer, writeV04, writeV05, type Compression, type ImageSpec, type RemoteServer } from '../helpers/zarr-remote.ts';

interface Case {
  name: string;
  format: 'v0.4 .' | 'v0.4 /' | 'v0.5' | 'v0.5 sharded';
  compression: Compression;
  dtype: DType;
  axes: string;
  shape: number[];
  chunks: number[];
  labels?: boolean;
}

const CASES: Case[] = [
  { name: 'v04-dot-gzip', format: 'v0.4 .', compression: 'gzip', dtype: 'uint16', axes: 'zyx', shape: [9, 20, 17], chunks: [4, 8, 8] },
  { name: 'v04-slash-blosc', format: 'v0.4 /', compression: 'blosc', dtype: 'int16', axes: 'czyx', shape: [2, 5, 12, 11], chunks: [1, 4, 8, 8] },
  { name: 'v04-slash-zstd', format: 'v0.4 /', compression: 'zstd', dtype: 'float32', axes: 'tczyx', shape: [2, 2, 3, 9, 10], chunks: [1, 1, 2, 4, 4] },
  { name: 'v04-dot-none', format: 'v0.4 .', compression: 'none', dtype: 'int8', axes: 'zyx', shape: [3, 7, 6], chunks: [2, 4, 4] },
  { name: 'v05-sharded-zstd', format: 'v0.5 sharded', compression: 'zstd', dtype: 'uint16', axes: 'zyx', shape: [10, 19, 23], chunks: [4, 4, 4] },
  { name: 'v05-sharded-blosc', format: 'v0.5 sharded', compression: 'blosc', dtype: 'float64', axes: 'tzyx', shape: [2, 5, 9, 8], chunks: [1, 2, 4, 4] },
  { name: 'v05-sharded-gzip', format: 'v0.5 sharded', compression: 'gzip', dtype: 'int32', axes: 'czyx', shape: [3, 4, 6, 7], chunks: [1, 2, 2, 4] },
  { name: 'v05-sharded-none', format: 'v0.5 sharded', compression: 'none', dtype: 'uint32', axes: 'zyx', shape: [6, 6, 9], chunks: [2, 2, 4], labels: true },
  { name: 'v05-plain-zstd', format: 'v0.5', compression: 'zstd', dtype: 'uint8', axes: 'zyx', shape: [5, 13, 14], chunks: [2, 8, 8], labels: true },
];

let remote: RemoteServer;
const specs = new Map<string, ImageSpec>();

beforeAll(async () => {
  remote = await startRemoteServer();
  for (const [i, c] of CASES.entries()) {
    const count = c.shape.reduce((a, b) => a * b, 1);
    // Labels are small ids; images use their dtype's range.
    const data = c.labels ? samplesOf(c.dtype, count, i).map((v) => v % 7) : samplesOf(c.dtype, count, i + 1);
    const level0 = { shape: c.shape, data };
    const spec: ImageSpec = {
      path: `images/${c.name}.ome.zarr`,
      axes: c.axes,
      dtype: c.dtype,
      levels: [level0, halved(level0, c.axes)],
      chunks: c.chunks,
      compression: c.compression,
      scale: [...c.axes].map((a) => (a === 'z' ? 2 : a === 't' ? 0.5 : a === 'c' ? 1 : 0.25)),
      translation: [...c.axes].map((a) => (a === 'z' ? 10 : a === 'x' ? -3 : 0)),
      labels: c.labels,
    };
    specs.set(c.name, spec);
    // An image read only by the level-choice case, so what it reads is all it reads.
    if (i === 0) await writeV05(remote.files, { ...spec, path: 'images/fit.ome.zarr', compression: 'zstd' }, [2, 2, 2]);
    if (c.format === 'v0.5 sharded') await writeV05(remote.files, spec, c.chunks.map((_, a) => (a === c.chunks.length - 1 ? 3 : 2)));
    else if (c.format === 'v0.5') await writeV05(remote.files, spec);
    else await writeV04(remote.files, spec, c.format === 'v0.4 .' ? '.' : '/');
  }
});
afterAll(() => remote?.close());

const host = fileTestApp(async () => ({ remotes: { lab: `${remote.url}images` } }));

async function deliveredStep(id: string, step: string): Promise<{ shape: number[]; data: number[]; level: string | undefined }> {
  const res = await host.app.inject({ method: 'GET', url: `/api/specimens/${id}/data?format=npy${step}` });
  expect(res.statusCode, res.body.slice(0, 300)).toBe(200);
  const volume = parseNpy(res.rawPayload) as { shape: number[]; data: ArrayLike<number> };
  return { shape: volume.shape, data: Array.from(volume.data), level: res.headers['x-remote-level'] as string | undefined };
}

/**
 * Every sample delivered, with its shape in the image's axes: a volume with time or channels
 * travels one step of one channel at a time (`t=`, `c=`), so each is asked for and laid side by side.
 */
async function delivered(id: string, axes: string, shape: number[]): Promise<{ shape: number[]; data: number[]; level: string | undefined }> {
  const steps = axes.includes('t') ? shape[0]! : 1;
  const channels = axes.includes('c') ? shape[axes.indexOf('c')]! : 1;
  const data: number[] = [];
  let last: { shape: number[]; level: string | undefined } = { shape: [], level: undefined };
  for (let t = 0; t < steps; t++) {
    for (let c = 0; c < channels; c++) {
      const ask = `${axes.includes('t') ? `&t=${t}` : ''}${axes.includes('c') ? `&c=${c}` : ''}`;
      const got = await deliveredStep(id, ask);
      data.push(...got.data);
      last = got;
    }
  }
  const outer = [...(axes.includes('t') ? [steps] : []), ...(axes.includes('c') ? [channels] : [])];
  return { shape: [...outer, ...last.shape], data, level: last.level };
}

describe('remote OME-Zarr read in place, every sample as the remote has it', () => {
  for (const c of CASES) {
    it(`${c.name}: ${c.format}, ${c.compression}, ${c.dtype}, ${c.axes}`, async () => {
      const spec = specs.get(c.name)!;
      const put = await host.app.inject({ method: 'PUT', url: `/api/specimens/r-${c.name}`, payload: { remote: `lab/${c.name}.ome.zarr` } });
      expect(put.statusCode, put.body).toBe(201);
      const info = put.json();
      expect(info).toMatchObject({ shape: c.shape, dtype: c.dtype, axes: c.axes, labels: c.labels === true });
      expect(info.levels).toEqual(spec.levels.map((l) => l.shape));
      expect(info.spacing).toEqual(spec.scale.slice(-3));
      expect(info.origin).toEqual(spec.translation!.slice(-3));
      expect(info.format).toBe(c.format.startsWith('v0.5') ? 'ome-zarr-0.5' : 'ome-zarr-0.4');

      const full = await delivered(`r-${c.name}`, c.axes, c.shape);
      expect(full.level).toBe('0');
      expect(full.shape).toEqual(c.shape);
      expect(Array.from(full.data)).toEqual(Array.from(spec.levels[0]!.data));

      const coarse = await host.app.inject({ method: 'PUT', url: `/api/specimens/r1-${c.name}`, payload: { remote: `lab/${c.name}.ome.zarr`, level: 1 } });
      expect(coarse.statusCode, coarse.body).toBe(201);
      const one = await delivered(`r1-${c.name}`, c.axes, spec.levels[1]!.shape);
      expect(one.level).toBe('1');
      expect(one.shape).toEqual(spec.levels[1]!.shape);
      expect(Array.from(one.data)).toEqual(Array.from(spec.levels[1]!.data));
    });
  }

  it('a channel and a time step chosen at publishing are what is delivered', async () => {
    const spec = specs.get('v04-slash-zstd')!;
    const put = await host.app.inject({ method: 'PUT', url: '/api/specimens/r-step', payload: { remote: 'lab/v04-slash-zstd.ome.zarr', t: 1, channel: 0 } });
    expect(put.statusCode, put.body).toBe(201);
    const [, channels, ...space] = spec.levels[0]!.shape;
    expect(put.json()).toMatchObject({ shape: space, axes: 'zyx' });
    const block = space.reduce((a, b) => a * b, 1);
    const start = (1 * channels! + 0) * block;
    const got = await deliveredStep('r-step', '');
    expect(Array.from(got.data)).toEqual(Array.from(spec.levels[0]!.data.subarray(start, start + block)));
  });

  it('a labels image is a labels specimen, and an image published as labels is one', async () => {
    const put = await host.app.inject({ method: 'PUT', url: '/api/specimens/r-as-labels', payload: { remote: 'lab/v04-dot-gzip.ome.zarr', role: 'labels' } });
    expect(put.statusCode, put.body).toBe(201);
    expect(put.json().labels).toBe(true);
    const payload = { remote: 'lab/v04-slash-zstd.ome.zarr', role: 'labels' };
    const float = await host.app.inject({ method: 'PUT', url: '/api/specimens/r-bad-labels', payload });
    expect(float.statusCode).toBe(400);
    expect(float.json().detail).toMatch(/labels.*uint8, uint16 or uint32.*float32/);
  });

  it('a max_dim reads the finest level within it, and only that level', async () => {
    await host.app.inject({ method: 'PUT', url: '/api/specimens/r-fit', payload: { remote: 'lab/fit.ome.zarr' } });
    remote.reset();
    const res = await host.app.inject({ method: 'GET', url: '/api/specimens/r-fit/data?format=npy&max_dim=12' });
    expect(res.statusCode, res.body.slice(0, 200)).toBe(200);
    expect(res.headers['x-remote-level']).toBe('1');
    expect(remote.sent.paths.every((p) => p.includes('.ome.zarr/1/'))).toBe(true);
    expect(remote.sent.requests).toBeGreaterThan(0);
  });
});
