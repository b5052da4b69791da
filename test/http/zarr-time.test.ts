/**
 * The OME-Zarr store of a volume with time and channels, read by zarr-python (Debian's
 * python3-zarr, through a key-value store that fetches keys over HTTP with the standard
 * library, as Debian has no aiohttp for zarr's own HTTP store): the
 * axes with their types and units, one step of one channel per chunk (chunk 1 along t and c),
 * pyramid levels that halve space only, each channel's label, colour and window in `omero`,
 * and the values the plugin wrote at any step and channel, at every level.
 */
import { execFile } from 'node:child_process';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../core/app.ts';
import { addDynamicSpecimen } from '../helpers/create-test-app.ts';
import { fixturePluginsDir } from '../helpers/fixture-plugins.ts';

const READER = String.raw`
import json, sys, urllib.error, urllib.request
from collections.abc import MutableMapping
import numpy as np
import zarr

class HttpStore(MutableMapping):
    def __init__(self, url):
        self.url = url
    def __getitem__(self, key):
        try:
            with urllib.request.urlopen(f"{self.url}/{key}") as answer:
                return answer.read()
        except urllib.error.HTTPError as error:
            if error.code == 404:
                raise KeyError(key)
            raise
    def __setitem__(self, key, value):
        raise PermissionError("read-only")
    def __delitem__(self, key):
        raise PermissionError("read-only")
    def __iter__(self):
        return iter(())
    def __len__(self):
        return 0

root = zarr.open_group(store=zarr.storage.KVStore(HttpStore(sys.argv[1])), mode="r")
attrs = root.attrs.asdict()
levels = [root[d["path"]] for d in attrs["multiscales"][0]["datasets"]]
out = {
    "axes": attrs["multiscales"][0]["axes"],
    "scales": [d["coordinateTransformations"][0]["scale"] for d in attrs["multiscales"][0]["datasets"]],
    "omero": attrs["omero"]["channels"],
    "shapes": [list(a.shape) for a in levels],
    "chunks": [list(a.chunks) for a in levels],
}
if len(sys.argv) > 2:
    t, c, z, y, x = np.indices(levels[0].shape)
    expected = t * 1000 + c * 100 + z * 10 + y + x
    out["level0_equal"] = bool(np.array_equal(levels[0][...], expected))
    out["step"] = levels[0][2, 1, 3, :2, :3].tolist()
    # Level 1: each sample the mean of its 2x2x2 block of level 0, per step and channel.
    half = levels[1][1, 0].astype(np.float64)
    block = levels[0][1, 0].astype(np.float64)
    z2, y2, x2 = (n // 2 * 2 for n in block.shape)
    means = block[:z2, :y2, :x2].reshape(z2 // 2, 2, y2 // 2, 2, x2 // 2, 2).mean(axis=(1, 3, 5))
    out["level1_close"] = bool(np.abs(half[:z2 // 2, :y2 // 2, :x2 // 2] - means).max() <= 0.5)
print(json.dumps(out))
`;

let app: FastifyInstance;
let url: string;

beforeAll(async () => {
  app = await createApp({ pluginsDir: await fixturePluginsDir(), specimensDir: null, logLevel: false, poolSize: 2, viewer: false });
  addDynamicSpecimen(app, 'steps', 'indexed_steps');
  addDynamicSpecimen(app, 'field', 'vector_field');
  url = await app.listen({ host: '127.0.0.1', port: 0 });
});
afterAll(() => app?.close());

/** The store of `id` computed with `params`, as zarr-python reads it. */
async function readStore(id: string, params: object, values: boolean): Promise<Record<string, unknown>> {
  const res = await fetch(`${url}/api/specimens/${id}/data?params=${encodeURIComponent(JSON.stringify(params))}`);
  expect(res.status).toBe(200);
  await res.arrayBuffer();
  const store = `${url}/api/results/${res.headers.get('x-result-id')}.zarr`;
  const output = await new Promise<string>((resolve, reject) =>
    execFile('/usr/bin/python3', ['-c', READER, store, ...(values ? ['values'] : [])], { timeout: 120_000 }, (error, stdout, stderr) =>
      error ? reject(new Error(`${error.message}\n${stderr}`)) : resolve(stdout),
    ),
  );
  return JSON.parse(output) as Record<string, unknown>;
}

describe('OME-Zarr with time and channels, read by zarr-python', () => {
  it('has typed axes with units, chunks of one step of one channel, space-only levels and the values the plugin wrote', async () => {
    const got = await readStore('steps', { steps: 3, channels: 2, depth: 4, height: 70, width: 130 }, true);
    expect(got.axes).toEqual([
      { name: 't', type: 'time', unit: 'minute' },
      { name: 'c', type: 'channel' },
      { name: 'z', type: 'space' },
      { name: 'y', type: 'space' },
      { name: 'x', type: 'space' },
    ]);
    expect(got.shapes).toEqual([[3, 2, 4, 70, 130], [3, 2, 2, 35, 65], [3, 2, 1, 18, 33]]);
    for (const chunks of got.chunks as number[][]) expect(chunks.slice(0, 2)).toEqual([1, 1]);
    expect((got.chunks as number[][])[0]).toEqual([1, 1, 4, 64, 64]);
    expect(got.scales).toEqual([[2, 1, 1, 0.5, 0.5], [2, 1, 2, 1, 1], [2, 1, 4, 2, 2]]);
    expect(got.level0_equal).toBe(true);
    expect(got.step).toEqual([[2130, 2131, 2132], [2131, 2132, 2133]]);
    expect(got.level1_close).toBe(true);
    const omero = got.omero as { label: string; color: string; window: { start: number; end: number; min: number; max: number } }[];
    expect(omero.map((c) => [c.label, c.color])).toEqual([['ch0', '00FF00'], ['ch1', 'FF00FF']]);
    // Windows from percentiles of each channel's samples, within its range over every step.
    for (const [c, channel] of omero.entries()) {
      expect(channel.window.min).toBe(c * 100);
      expect(channel.window.max).toBe(2000 + c * 100 + 30 + 69 + 129);
      expect(channel.window.start).toBeGreaterThanOrEqual(channel.window.min);
      expect(channel.window.end).toBeLessThanOrEqual(channel.window.max);
      expect(channel.window.start).toBeLessThan(channel.window.end);
    }
  });

  it('gives a vector field its components named and coloured, its time step in seconds', async () => {
    const got = await readStore('field', { width: 6, height: 5, depth: 4, steps: 3 }, false);
    expect((got.axes as { name: string; unit?: string }[]).map((a) => [a.name, a.unit ?? null])).toEqual([
      ['t', 'second'],
      ['c', null],
      ['z', 'micrometer'],
      ['y', 'micrometer'],
      ['x', 'micrometer'],
    ]);
    expect((got.scales as number[][])[0]).toEqual([0.1, 1, 2, 1, 1]);
    const omero = got.omero as { label: string; color: string }[];
    expect(omero.map((c) => [c.label, c.color])).toEqual([['vx', 'FF0000'], ['vy', '00FF00'], ['vz', '0000FF']]);
  });
});
