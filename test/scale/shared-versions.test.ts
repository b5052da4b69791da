/**
 * The plugin versions of a Redis service are where every host can load them: host A computes a
 * layer pinned to shapes 1.0.0, takes 1.1.0 in and is killed. Host B starts later with only
 * 1.1.0 in its plugins folder and lends no threads; a worker that only ever had 1.1.0 computes.
 * B keeps 1.0.0 all the same (taken from the service), and a pinned layer on B is computed by
 * 1.0.0 on the worker: the same result as A made, and another than 1.1.0 makes. A version a
 * third host brings while B runs is kept by B at its next reload, behind the one B serves.
 */
import { afterAll, describe, expect, it } from 'vitest';
import type { RoomScene } from '../../core/wire/scene-types.ts';
import { startRedis } from '../helpers/redis-server.ts';
import { spawnHost, type RunningHost } from '../helpers/spawn-host.ts';
import { spawnWorker } from '../helpers/spawn-worker.ts';
import { dropIn, pluginsFolder, shapesVersion } from '../helpers/versioned-plugin.ts';
import { waitFor } from '../helpers/wait-for.ts';

const send = (host: RunningHost, method: string, p: string, body?: unknown) =>
  fetch(`${host.url}${p}`, { method, headers: { 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) });

async function computedLayer(host: RunningHost, room: string, id: string, segments: number) {
  return waitFor(async () => {
    const scene = (await (await send(host, 'GET', `/api/rooms/${room}/scene`)).json()) as RoomScene;
    const layer = scene.layers.find((l) => l.id === id);
    return layer?.result && layer.source.params?.segments === segments ? layer.result : undefined;
  }, `layer ${id} computed with ${segments} segments`);
}

const stops: (() => Promise<unknown>)[] = [];
afterAll(async () => {
  for (const stop of stops.reverse()) await stop();
});

describe('plugin versions shared by the hosts of a service', { timeout: 240_000 }, () => {
  it('a host that joins later keeps the versions others loaded, and a worker computes a pinned one', async () => {
    const redis = await startRedis();
    stops.push(() => redis.stop());
    const [first, second] = await Promise.all([shapesVersion('1.0.0'), shapesVersion('1.1.0', '2.5')]);
    const [pluginsA, pluginsB] = await Promise.all([pluginsFolder(), pluginsFolder()]);
    await Promise.all([dropIn(first, pluginsA), dropIn(second, pluginsB)]);
    const common = ['--port', '0', '--redis', redis.url, '--specimens', 'none', '--pool-size', '1', '--log-level', 'warn'];

    const a = await spawnHost([...common, '--plugins', pluginsA]);
    const source = { function: 'ring', params: { segments: 11 }, version: '1.0.0' };
    expect((await send(a, 'POST', '/api/rooms/shared/layers', { id: 'pinned', source })).status).toBe(201);
    const made = await computedLayer(a, 'shared', 'pinned', 11);
    expect(made.provenance).toMatchObject({ version: '1.0.0' });
    await dropIn(second, pluginsA);
    expect((await send(a, 'GET', '/api/specimens/reload')).status).toBe(200);
    await a.stop('SIGKILL');

    const b = await spawnHost([...common, '--plugins', pluginsB, '--compute', '0']);
    stops.push(() => b.stop());
    const worker = await spawnWorker(['--redis', redis.url, '--plugins', pluginsB, '--pool-size', '1', '--log-level', 'warn']);
    stops.push(() => worker.stop());

    const listed = (await (await send(b, 'GET', '/api/plugins')).json()) as { plugins: { plugin: string; versions: { version: string }[] }[] };
    expect(listed.plugins.find((p) => p.plugin === 'shapes')?.versions.map((v) => v.version)).toEqual(['1.1.0', '1.0.0']);

    // Computed anew, by the worker (B lends no threads), with the version the layer pins.
    expect((await send(b, 'PATCH', '/api/rooms/shared/layers/pinned', { source: { ...source, params: { segments: 12 } } })).status).toBe(200);
    const pinned12 = await computedLayer(b, 'shared', 'pinned', 12);
    expect(pinned12.provenance).toMatchObject({ plugin: 'shapes', version: '1.0.0' });
    expect((await send(b, 'POST', '/api/rooms/shared/layers', { id: 'newest', source: { function: 'ring', params: { segments: 12 } } })).status).toBe(201);
    const newest12 = await computedLayer(b, 'shared', 'newest', 12);
    expect(newest12.provenance).toMatchObject({ version: '1.1.0' });
    expect(newest12.result_id).not.toBe(pinned12.result_id);
    const data = await send(b, 'GET', pinned12.data_url);
    expect(data.status).toBe(200);
    expect(data.headers.get('vitrine-provenance')).toMatch(/^shapes@1\.0\.0; bundle=/);

    // The worker's own folder never had 1.0.0: it took it from the service.
    expect(worker.stderr()).not.toMatch(/not kept|cannot be loaded/);
    expect((await send(b, 'PATCH', '/api/rooms/shared/layers/pinned', { source })).status).toBe(200);
    expect((await computedLayer(b, 'shared', 'pinned', 11)).result_id).toBe(made.result_id);

    // A version another host brings later: B keeps it as an older one at its next reload, and still serves its own.
    const pluginsC = await pluginsFolder();
    await dropIn(await shapesVersion('1.2.0', '3.5'), pluginsC);
    const c = await spawnHost([...common, '--plugins', pluginsC, '--compute', '0']);
    stops.push(() => c.stop());
    expect((await send(b, 'GET', '/api/specimens/reload')).status).toBe(200);
    const again = (await (await send(b, 'GET', '/api/plugins')).json()) as typeof listed;
    expect(again.plugins.find((p) => p.plugin === 'shapes')?.versions.map((v) => v.version)).toEqual(['1.1.0', '1.0.0', '1.2.0']);
  });
});
