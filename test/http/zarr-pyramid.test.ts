/**
 * The OME-Zarr store's pyramid, read back with zarrita over real HTTP: every level halves each
 * axis longer than 1 until the longest is at most 64, and equals the mean of 2x2x2 blocks of
 * the level above it within rounding; the datasets' scales double with each level, the axes
 * carry the plugin's unit as NGFF names it, `omero` shows the value range, chunks answer at
 * `z/y/x` and at the old `z.y.x` names alike, and the pyramid counts in the result budget.
 */
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as zarr from 'zarrita';
import { createApp } from '../../core/app.ts';
import { addDynamicSpecimen, room } from '../helpers/create-test-app.ts';
import { fixturePluginsDir } from '../helpers/fixture-plugins.ts';
import { makeSpecimensDir } from '../helpers/specimens-dir.ts';

/** Mean of the 2x2x2 blocks (axes of length 1 kept, a lone edge sample kept) of a C-order volume. */
function meanHalve(data: ArrayLike<number>, shape: number[]): { data: Float64Array; shape: number[] } {
  const f = shape.map((n) => (n > 1 ? 2 : 1));
  const out = shape.map((n, a) => Math.ceil(n / f[a]!));
  const result = new Float64Array(out[0]! * out[1]! * out[2]!);
  for (let z = 0; z < out[0]!; z++)
    for (let y = 0; y < out[1]!; y++)
      for (let x = 0; x < out[2]!; x++) {
        let sum = 0;
        let count = 0;
        for (let zz = z * f[0]!; zz < Math.min(shape[0]!, (z + 1) * f[0]!); zz++)
          for (let yy = y * f[1]!; yy < Math.min(shape[1]!, (y + 1) * f[1]!); yy++)
            for (let xx = x * f[2]!; xx < Math.min(shape[2]!, (x + 1) * f[2]!); xx++) {
              sum += data[(zz * shape[1]! + yy) * shape[2]! + xx]!;
              count++;
            }
        result[(z * out[1]! + y) * out[2]! + x] = sum / count;
      }
  return { data: result, shape: out };
}

async function resultId(url: string, params: object): Promise<string> {
  const res = await fetch(`${url}/api/specimens/sized/data?params=${encodeURIComponent(JSON.stringify(params))}&room_id=${room()}`);
  expect(res.status).toBe(200);
  await res.arrayBuffer();
  return res.headers.get('x-result-id')!;
}

describe('OME-Zarr pyramid', () => {
  let app: FastifyInstance;
  let url: string;
  beforeAll(async () => {
    app = await createApp({ pluginsDir: await fixturePluginsDir(), specimensDir: await makeSpecimensDir(), logLevel: false, poolSize: 2, viewer: false });
    addDynamicSpecimen(app, 'sized', 'sized_volume');
    url = await app.listen({ host: '127.0.0.1', port: 0 });
  });
  afterAll(() => app.close());

  it('holds every level down to 64 samples, each the mean-downsampled level above within rounding', async () => {
    const id = await resultId(url, { depth: 130, height: 200, width: 90, dtype: 'uint16', unit: 'µm' });
    const store = new zarr.FetchStore(`${url}/api/results/${id}.zarr`);
    const group = await zarr.open.v2(zarr.root(store), { kind: 'group' });
    const attrs = group.attrs as {
      multiscales: { axes: object[]; datasets: { path: string; coordinateTransformations: { type: string; scale?: number[] }[] }[] }[];
      omero: { channels: { window: { min: number; max: number; start: number; end: number } }[] };
    };
    const [multiscale] = attrs.multiscales;
    expect(multiscale!.axes).toEqual([
      { name: 'z', type: 'space', unit: 'micrometer' },
      { name: 'y', type: 'space', unit: 'micrometer' },
      { name: 'x', type: 'space', unit: 'micrometer' },
    ]);
    expect(multiscale!.datasets.map((d) => d.path)).toEqual(['0', '1', '2']);
    expect(multiscale!.datasets.map((d) => d.coordinateTransformations[0]!.scale)).toEqual([
      [0.9, 0.45, 0.45],
      [1.8, 0.9, 0.9],
      [3.6, 1.8, 1.8],
    ]);
    const shapes = [
      [130, 200, 90],
      [65, 100, 45],
      [33, 50, 23],
    ];
    let above: { data: ArrayLike<number>; shape: number[] } | null = null;
    let min = Infinity;
    let max = -Infinity;
    for (const [level, shape] of shapes.entries()) {
      const array = await zarr.open.v2(zarr.root(store).resolve(String(level)), { kind: 'array' });
      expect(array.shape, `level ${level}`).toEqual(shape);
      expect(array.dtype).toBe('uint16');
      const read = await zarr.get(array);
      const data = read.data as Uint16Array;
      if (level === 0) {
        for (const v of data) {
          min = Math.min(min, v);
          max = Math.max(max, v);
        }
      }
      if (above) {
        const want = meanHalve(above.data, above.shape);
        expect(want.shape).toEqual(shape);
        let worst = 0;
        for (let i = 0; i < data.length; i++) worst = Math.max(worst, Math.abs(data[i]! - want.data[i]!));
        expect(worst, `level ${level}: largest difference from the mean`).toBeLessThanOrEqual(0.5);
      }
      above = { data, shape };
    }
    expect(attrs.omero.channels[0]!.window).toEqual({ min, max, start: min, end: max });
    const zarray = (await (await fetch(`${url}/api/results/${id}.zarr/2/.zarray`)).json()) as Record<string, unknown>;
    expect(zarray).toMatchObject({ shape: [33, 50, 23], chunks: [33, 50, 23], dimension_separator: '/' });
    expect((await fetch(`${url}/api/results/${id}.zarr/3/.zarray`)).status).toBe(404);
  });

  it('answers the old dotted chunk names with the same bytes', async () => {
    const id = await resultId(url, { depth: 70, height: 20, width: 20, dtype: 'int16' });
    for (const [slashed, dotted] of [['0/1/0/0', '0/1.0.0'], ['1/0/0/0', '1/0.0.0']]) {
      const a = await fetch(`${url}/api/results/${id}.zarr/${slashed}`);
      const b = await fetch(`${url}/api/results/${id}.zarr/${dotted}`);
      expect([a.status, b.status]).toEqual([200, 200]);
      expect(Buffer.from(await a.arrayBuffer()).equals(Buffer.from(await b.arrayBuffer()))).toBe(true);
    }
  });

  it('leaves a unit NGFF does not know off the axes, and a small volume has one level', async () => {
    const id = await resultId(url, { depth: 8, height: 8, width: 8, dtype: 'float64', unit: 'furlong' });
    const attrs = (await (await fetch(`${url}/api/results/${id}.zarr/.zattrs`)).json()) as { multiscales: { axes: object[]; datasets: object[] }[] };
    expect(attrs.multiscales[0]!.axes).toEqual([
      { name: 'z', type: 'space' },
      { name: 'y', type: 'space' },
      { name: 'x', type: 'space' },
    ]);
    expect(attrs.multiscales[0]!.datasets).toHaveLength(1);
  });

  it('counts the pyramid in the result budget, made once', async () => {
    const id = await resultId(url, { depth: 100, height: 100, width: 100, dtype: 'uint8' });
    const before = app.vitrine.resultFigures().bytes;
    // Concurrent first readers share one making.
    const answers = await Promise.all([0, 1, 2].map(() => fetch(`${url}/api/results/${id}.zarr/.zattrs`)));
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200]);
    // One level below the volume: 50 per axis, one byte per sample.
    expect(app.vitrine.resultFigures().bytes - before).toBe(50 ** 3);
    expect((await fetch(`${url}/api/results/${id}.zarr/1/0/0/0`)).status).toBe(200);
    expect(app.vitrine.resultFigures().bytes - before).toBe(50 ** 3);
  });
});
