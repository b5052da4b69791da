/**
 * A lone host keeps its plugins' older versions in its data folder: after a new version is
 * dropped in and the host is killed (`kill -9`) and started again on the same folder, it still
 * keeps the older version, and a layer pinned to it is computed by it (the same result). A
 * `vitrine backup` of the folder keeps them too, and its users: a host started on the copy
 * lists both versions, computes the pinned layer with the older one, and knows the user's token.
 * docs/data.md names every entry of the folder.
 */
import { computedProvenance } from '../../core/wire/provenance-types.ts';
import { execFile } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { CLI, REPO } from '../helpers/cli-path.ts';
import type { RoomScene } from '../../core/wire/scene-types.ts';
import { spawnHost, type RunningHost } from '../helpers/spawn-host.ts';
import { tempDataDir } from '../helpers/temp-data-store.ts';
import { dropIn, pluginsFolder, shapesVersion } from '../helpers/versioned-plugin.ts';
import { waitFor } from '../helpers/wait-for.ts';

const send = (host: RunningHost, method: string, p: string, body?: unknown) =>
  fetch(`${host.url}${p}`, { method, headers: { 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) });

/** The layer's result once it is computed with `segments` (a result of its source before shows until then). */
async function computedLayer(host: RunningHost, room: string, id: string, segments: number) {
  return waitFor(async () => {
    const scene = (await (await send(host, 'GET', `/api/rooms/${room}/scene`)).json()) as RoomScene;
    const layer = scene.layers.find((l) => l.id === id);
    if (computedProvenance(layer?.result?.provenance)?.params.segments === segments) return layer!.result;
    // Not yet: what the layer shows instead (a failure marks it stale) is what a timeout reports.
    throw new Error(`the layer shows ${JSON.stringify({ params: computedProvenance(layer?.result?.provenance)?.params, stale: layer?.stale })}`);
  }, `layer ${id} computed with ${segments} segments`);
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
    const made = await computedLayer(host, 'kept', 'pinned', 11);
    await dropIn(second, plugins);
    expect((await send(host, 'GET', '/api/specimens/reload')).status).toBe(200);
    await host.stop('SIGKILL');

    const again = await spawnHost(args);
    try {
      const listed = (await (await send(again, 'GET', '/api/plugins')).json()) as { plugins: { plugin: string; versions: { version: string }[] }[] };
      expect(listed.plugins.find((p) => p.plugin === 'shapes')?.versions.map((v) => v.version)).toEqual(['1.1.0', '1.0.0']);
      // The pinned layer computed anew by the kept version: the same result as before the restart.
      expect((await send(again, 'PATCH', '/api/rooms/kept/layers/pinned', { source: { ...source, params: { segments: 12 } } })).status).toBe(200);
      const r12 = await computedLayer(again, 'kept', 'pinned', 12);
      expect(r12.provenance).toMatchObject({ version: '1.0.0' });
      expect((await send(again, 'PATCH', '/api/rooms/kept/layers/pinned', { source })).status).toBe(200);
      const recomputed = await computedLayer(again, 'kept', 'pinned', 11);
      expect(recomputed.result_id).toBe(made.result_id);
      expect(recomputed.provenance).toEqual(made.provenance);
    } finally {
      await again.stop();
    }
  });

  it('a backup taken while it runs keeps both versions and the users: a host on the copy computes the pinned layer', async () => {
    const [first, second] = await Promise.all([shapesVersion('1.0.0'), shapesVersion('1.1.0', '2.5')]);
    const plugins = await pluginsFolder();
    const dir = tempDataDir();
    const copy = path.join(tempDataDir(), 'copy');
    await dropIn(first, plugins);
    const base = ['--port', '0', '--plugins', plugins, '--specimens', 'none', '--pool-size', '1', '--log-level', 'warn'];
    const host = await spawnHost([...base, '--data-dir', dir]);
    const run = promisify(execFile);
    const added = await run(process.execPath, [CLI, 'users', 'add', 'ada', '--data-dir', dir], { cwd: REPO });
    const token = /[A-Za-z0-9_-]{32,}/.exec(added.stdout)![0];
    const source = { function: 'ring', params: { segments: 11 }, version: '1.0.0' };
    expect((await send(host, 'POST', '/api/rooms/kept/layers', { id: 'pinned', source })).status).toBe(201);
    const made = await computedLayer(host, 'kept', 'pinned', 11);
    await dropIn(second, plugins);
    expect((await send(host, 'GET', '/api/specimens/reload')).status).toBe(200);
    const { stdout } = await run(process.execPath, [CLI, 'backup', '--data-dir', dir, copy], { cwd: REPO });
    expect(stdout).toMatch(/, 2 kept plugin versions\n$/);
    // Every entry of a data folder in use is one docs/data.md names.
    const folderDoc = readFileSync(path.join(REPO, 'docs/data.md'), 'utf8').split('## What is in the folder')[1]!.split('\n## ')[0]!;
    const named = (entry: string) => new RegExp(`^\\s+${entry.replace(/\d+$/, '<n>').replace(/[.]/g, '\\.')}/?\\s`, 'm').test(folderDoc);
    expect(readdirSync(dir).filter((entry) => !named(entry))).toEqual([]);
    await host.stop();

    const restored = await spawnHost([...base, '--data-dir', copy]);
    try {
      const listed = (await (await send(restored, 'GET', '/api/plugins')).json()) as { plugins: { plugin: string; versions: { version: string }[] }[] };
      expect(listed.plugins.find((p) => p.plugin === 'shapes')?.versions.map((v) => v.version)).toEqual(['1.1.0', '1.0.0']);
      expect((await send(restored, 'PATCH', '/api/rooms/kept/layers/pinned', { source: { ...source, params: { segments: 12 } } })).status).toBe(200);
      expect((await computedLayer(restored, 'kept', 'pinned', 12)).provenance).toMatchObject({ version: '1.0.0' });
      expect((await send(restored, 'PATCH', '/api/rooms/kept/layers/pinned', { source })).status).toBe(200);
      expect((await computedLayer(restored, 'kept', 'pinned', 11)).result_id).toBe(made.result_id);
      const me = await fetch(`${restored.url}/api/me`, { headers: { authorization: `Bearer ${token}` } });
      expect(await me.json()).toEqual({ name: 'ada', admin: false });
    } finally {
      await restored.stop();
    }
  });
});
