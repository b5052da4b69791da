/**
 * A room's layer over a remote that fails says so: the room's followers get `failed` naming the
 * layer, SPC_ERR_REMOTE_UNAVAILABLE and the remote's key, the scene's layer says `failed` with the
 * same words, and once the remote is back the layer is tried again by itself and shows.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RoomScene } from '../../core/wire/scene-types.ts';
import { fileTestApp, room } from '../helpers/create-test-app.ts';
import { openStream } from '../helpers/sse-reader.ts';
import { waitFor } from '../helpers/wait-for.ts';
import { samplesOf, startRemoteServer, writeV05, type RemoteServer } from '../helpers/zarr-remote.ts';

let remote: RemoteServer;
beforeAll(async () => {
  remote = await startRemoteServer();
  const spec = { path: 'cells.ome.zarr', axes: 'zyx', dtype: 'uint16' as const, chunks: [4, 8, 4], compression: 'zstd' as const, scale: [1, 1, 1] };
  await writeV05(remote.files, { ...spec, levels: [{ shape: [8, 16, 12], data: samplesOf('uint16', 8 * 16 * 12, 4) }] });
});
afterAll(() => remote?.close());

const host = fileTestApp(async () => ({ remotes: { lab: remote.url }, remoteTimeoutSeconds: 1 }));

describe('a remote layer whose remote fails', () => {
  it('says failed with the reason, and shows once the remote is back', async () => {
    const put = await host.app.inject({ method: 'PUT', url: '/api/specimens/cells', payload: { remote: 'lab/cells.ome.zarr' } });
    expect(put.statusCode, put.body).toBe(201);
    const r = room();
    const events = await openStream(`${host.url}/api/rooms/${r}/events`);
    try {
      remote.failing = 500;
      const added = await host.app.inject({ method: 'POST', url: `/api/rooms/${r}/layers`, payload: { source: { specimen: 'cells' } } });
      expect(added.statusCode, added.body).toBeLessThan(300);
      const failed = await events.next((e) => e.event === 'failed');
      const reason = expect.stringMatching(/remote 'lab' could not give 'cells\.ome\.zarr\/.*HTTP 500/) as unknown;
      expect(failed.data).toMatchObject({ layer: 'cells', code: 'SPC_ERR_REMOTE_UNAVAILABLE', detail: reason });
      // A late joiner reads the same in the scene: the layer says it failed, and why.
      const failedLayer = await waitFor(async () => {
        const scene = (await host.app.inject({ method: 'GET', url: `/api/rooms/${r}/scene` })).json() as RoomScene;
        return scene.layers[0]?.failed ? scene.layers[0] : undefined;
      }, 'the layer marked failed');
      expect(failedLayer.result).toBeUndefined();
      expect(failedLayer.failed).toEqual({ code: 'SPC_ERR_REMOTE_UNAVAILABLE', detail: (failed.data as { detail: string }).detail });

      // The remote is back: the layer is tried again by itself, shows, and no longer says it failed.
      remote.failing = null;
      const shown = await waitFor(async () => {
        const scene = (await host.app.inject({ method: 'GET', url: `/api/rooms/${r}/scene` })).json() as RoomScene;
        return scene.layers[0]?.result ? scene.layers[0] : undefined;
      }, 'the layer shown once the remote is back');
      expect(shown.failed).toBeUndefined();
      expect(shown.result?.type).toBe('volume');
    } finally {
      events.close();
    }
  });
});
