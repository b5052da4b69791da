/**
 * The OME-Zarr store of a labels result, read by a third-party reader: Debian's zarr-python
 * (test/http/py/read_label_store.py) opens it over HTTP from a real host, reads every pyramid
 * level, and finds in each only ids of level 0; the root attributes are an NGFF 0.4 label
 * image (`image-label` with the result's colours and names, integer levels picked by mode).
 */
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../core/app.ts';
import { addDynamicSpecimen, room } from '../helpers/create-test-app.ts';
import { fixturePluginsDir } from '../helpers/fixture-plugins.ts';
import { makeSpecimensDir } from '../helpers/specimens-dir.ts';

const READER = fileURLToPath(new URL('./py/read_label_store.py', import.meta.url));

interface Read {
  attrs: {
    multiscales: { type: string; datasets: { path: string }[] }[];
    'image-label': {
      version: string;
      colors: { 'label-value': number; rgba: number[] }[];
      properties: { 'label-value': number; name?: string; voxels: number }[];
    };
    omero?: unknown;
  };
  levels: { path: string; shape: number[]; dtype: string; ids: number[] }[];
}

describe('the OME-Zarr store of a labels result', () => {
  let app: FastifyInstance;
  let url: string;
  beforeAll(async () => {
    app = await createApp({ pluginsDir: await fixturePluginsDir(), specimensDir: await makeSpecimensDir(), logLevel: false, poolSize: 2, viewer: false });
    addDynamicSpecimen(app, 'blobs', 'label_blobs');
    url = await app.listen({ host: '127.0.0.1', port: 0 });
  });
  afterAll(() => app.close());

  it('reads in zarr-python as an NGFF label image whose every level holds only ids of level 0', async () => {
    const params = encodeURIComponent(JSON.stringify({ size: 150, count: 40, dtype: 'uint16', stride: 7 }));
    const answer = await fetch(`${url}/api/specimens/blobs/data?params=${params}&room_id=${room()}`);
    await answer.arrayBuffer();
    const id = answer.headers.get('x-result-id')!;
    const { stdout } = await promisify(execFile)('/usr/bin/python3', [READER, `${url}/api/results/${id}.zarr`]);
    const read = JSON.parse(stdout) as Read;
    expect(read.levels.map((l) => [l.path, l.shape, l.dtype])).toEqual([
      ['0', [150, 150, 150], 'uint16'],
      ['1', [75, 75, 75], 'uint16'],
      ['2', [38, 38, 38], 'uint16'],
    ]);
    const [base, ...coarser] = read.levels;
    expect(base!.ids.length).toBeGreaterThan(30);
    for (const level of coarser) {
      expect(level.ids.filter((v) => !base!.ids.includes(v))).toEqual([]);
      // Picking keeps small segments: most ids survive a halving.
      expect(level.ids.length).toBeGreaterThan(base!.ids.length * 0.8);
    }
    expect(read.attrs.multiscales[0]!.type).toBe('mode');
    expect(read.attrs.omero).toBeUndefined();
    const label = read.attrs['image-label'];
    expect(label.version).toBe('0.4');
    expect(label.colors.map((c) => c['label-value'])).toEqual(base!.ids.filter((v) => v !== 0));
    expect(label.colors[0]).toEqual({ 'label-value': 7, rgba: [255, 0, 0, 255] });
    expect(label.properties.slice(0, 2).map((p) => p.name)).toEqual(['first blob', 'second blob']);
    expect(label.properties.every((p) => p.voxels > 0)).toBe(true);
  });
});
