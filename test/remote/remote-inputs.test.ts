/**
 * A function given a remote image as an input gets the finest level within
 * `--max-remote-bytes`, read in place, and its result's provenance says which level of which
 * remote image it got; a layer showing a remote image says the same of itself.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RoomScene } from '../../core/wire/scene-types.ts';
import { fileTestApp, room } from '../helpers/create-test-app.ts';
import { inputPluginsDir } from '../helpers/input-plugins.ts';
import { waitFor } from '../helpers/wait-for.ts';
import { halved, samplesOf, startRemoteServer, writeV05, type RemoteServer } from '../helpers/zarr-remote.ts';

let remote: RemoteServer;
const level0 = { shape: [8, 16, 12], data: samplesOf('uint16', 8 * 16 * 12, 5) };
const level1 = halved(level0, 'zyx');
beforeAll(async () => {
  remote = await startRemoteServer();
  const spec = { path: 'plate/cells.ome.zarr', axes: 'zyx', dtype: 'uint16' as const, chunks: [4, 4, 4], compression: 'zstd' as const, scale: [2, 1, 1] };
  await writeV05(remote.files, { ...spec, levels: [level0, level1] }, [1, 2, 2]);
});
afterAll(() => remote?.close());

// Level 0 is 3,072 bytes, level 1 384: a budget of 1,000 bytes gives level 1.
const host = fileTestApp(async () => ({ remotes: { lab: remote.url }, maxRemoteBytes: 1000, pluginsDir: await inputPluginsDir() }));

const sum = (values: ArrayLike<number>) => Array.from(values).reduce((a, b) => a + b, 0);

async function shownScene(r: string): Promise<RoomScene> {
  return waitFor(async () => {
    const s = (await host.app.inject({ method: 'GET', url: `/api/rooms/${r}/scene` })).json() as RoomScene;
    return s.layers.length > 0 && s.layers.every((l) => l.result) ? s : undefined;
  }, 'the layers shown');
}

describe('a remote image as a function input', () => {
  it('gets the finest level within --max-remote-bytes, and the provenance names it', async () => {
    const put = await host.app.inject({ method: 'PUT', url: '/api/specimens/cells', payload: { remote: 'lab/plate/cells.ome.zarr' } });
    expect(put.statusCode, put.body).toBe(201);

    const invoked = await host.app.inject({
      method: 'POST',
      url: '/api/processing/invoke',
      payload: { function_name: 'measure', kwargs: { volume: { specimen: 'cells' } }, room_id: room() },
    });
    expect(invoked.statusCode, invoked.body).toBe(200);
    // measure answers the shape it got, the sum of its values and their count.
    const got = (invoked.json() as { vertices: number[] }).vertices;
    expect(got.slice(0, 5)).toEqual([...level1.shape, sum(level1.data), level1.data.length]);

    const r = room();
    const added = await host.app.inject({
      method: 'POST',
      url: `/api/rooms/${r}/layers`,
      payload: { source: { function: 'measure', params: { volume: { specimen: 'cells' } } } },
    });
    expect(added.statusCode, added.body).toBeLessThan(300);
    const layer = (await shownScene(r)).layers[0]!;
    const origin = { name: 'lab', path: 'plate/cells.ome.zarr', level: 1, level_path: '1', shape: level1.shape };
    expect(layer.result!.provenance).toMatchObject({ function: 'measure', params: { volume: { specimen: 'cells', params: {}, remote: origin } } });
    const listed = (await host.app.inject({ method: 'GET', url: `/api/rooms/${r}/provenance` })).json() as { layers: { provenance: unknown }[] };
    expect(listed.layers[0]!.provenance).toMatchObject({ params: { volume: { remote: origin } } });
  });

  it('a layer showing the remote image says which level it read, and the version of every key read', async () => {
    const r = room();
    const added = await host.app.inject({ method: 'POST', url: `/api/rooms/${r}/layers`, payload: { source: { specimen: 'cells' } } });
    expect(added.statusCode, added.body).toBeLessThan(300);
    const provenance = (await shownScene(r)).layers[0]!.result!.provenance as { remote: { versions: Record<string, string | null> } };
    expect(provenance).toMatchObject({ remote: { name: 'lab', path: 'plate/cells.ome.zarr', level: 1, level_path: '1', shape: level1.shape } });
    const keys = Object.keys(provenance.remote.versions).sort();
    // The image's root, the level's array metadata and its shards (4×8×6 in shards of 4×8×8: one).
    expect(keys).toEqual(['plate/cells.ome.zarr/1/c/0/0/0', 'plate/cells.ome.zarr/1/zarr.json', 'plate/cells.ome.zarr/zarr.json']);
    for (const key of keys) expect(provenance.remote.versions[key]).toMatch(/^"[0-9a-f]{16}"$/);
  });
});
