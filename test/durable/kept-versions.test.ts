/**
 * A lone host keeps its plugins' older versions in its data folder: after a new version is
 * dropped in and the host is killed (`kill -9`) and started again on the same folder, it still
 * keeps the older version, and a layer pinned to it is computed by it (the same result).
 */
import { describe, expect, it } from 'vitest';
import type { RoomScene } from '../../core/wire/scene-types.ts';
import { spawnHost, type RunningHost } from '../helpers/spawn-host.ts';
import { tempDataDir } from '../helpers/temp-data-store.ts';
import { dropIn, pluginsFolder, shapesVersion } from '../helpers/versioned-plugin.ts';
import { waitFor } from '../helpers/wait-for.ts';

const send = (host: RunningHost, method: string, p: string, body?: unknown) =>
  fetch(`${host.url}${p}`, { method, headers: { 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) });

async function computedLayer(host: RunningHost, room: string, id: string) {
  return waitFor(async () => {
    const scene = (await (await send(host, 'GET', `/api/rooms/${room}/scene`)).json()) as RoomScene;
    return scene.layers.find((l) => l.id === id)?.result;
  }, `layer ${id} computed`);
}

describe('kept plugin versions across a restart', { timeout: 240_000 }, () => {
  it('keeps the older version in the data folder: a pinned layer is computed by it after kill -9', async () => {
    const [first, second] = await Promise.all([shapesVersion('1.0.0'), shapesVersion('1.1.0', '2.5')]);
    const plugins = await pluginsFolder();
    const dir = tempDataDir();
    await dropIn(first, plugins);
    const args = ['--port', '0', '--plugins', plugins, '--specimens', 'none', '--pool-size', '1', '--log-level', 'warn', '--data-dir', dir];
    const host = await spawnHost(args);
    const source = { function: 'ring', params: { segments: 11 }, version: '1.0.0' };
    expect((await send(host, 'POST', '/api/rooms/kept/layers', { id: 'pinned', source })).status).toBe(201);
    const made = await computedLayer(host, 'kept', 'pinned');
    await dropIn(second, plugins);
    expect((await send(host, 'GET', '/api/specimens/reload')).status).toBe(200);
    await host.stop('SIGKILL');

    const again = await spawnHost(args);
    try {
      const listed = (await (await send(again, 'GET', '/api/plugins')).json()) as { plugins: { plugin: string; versions: { version: string }[] }[] };
      expect(listed.plugins.find((p) => p.plugin === 'shapes')?.versions.map((v) => v.version)).toEqual(['1.1.0', '1.0.0']);
      // The pinned layer computed anew by the kept version: the same result as before the restart.
      expect((await send(again, 'PATCH', '/api/rooms/kept/layers/pinned', { source: { ...source, params: { segments: 12 } } })).status).toBe(200);
      const r12 = await computedLayer(again, 'kept', 'pinned');
      expect(r12.provenance).toMatchObject({ version: '1.0.0' });
      expect((await send(again, 'PATCH', '/api/rooms/kept/layers/pinned', { source })).status).toBe(200);
      const recomputed = await computedLayer(again, 'kept', 'pinned');
      expect(recomputed.result_id).toBe(made.result_id);
      expect(recomputed.provenance).toEqual(made.provenance);
    } finally {
      await again.stop();
    }
  });
});
