/**
 * Scenes on a Redis service of real processes (two front-end hosts, one worker): a scene
 * changed on one host is answered and streamed on the other, its layers computed by the
 * service (a layer's `computing` and `result` reach the other host's followers, naming the
 * layer, and a failing function's `failed` does too); writers on both hosts at once lose no
 * change; the scene, and a snapshot of it, outlive the restart of either host.
 */
import { describe, expect, it } from 'vitest';
import type { RoomScene, SnapshotCreated } from '../../core/wire/scene-types.ts';
import { openStream } from '../helpers/sse-reader.ts';
import type { RunningHost } from '../helpers/spawn-host.ts';
import { waitFor } from '../helpers/wait-for.ts';
import { room, useTwoHosts } from './service.ts';

const s = useTwoHosts();

const send = (host: RunningHost, method: string, path: string, body?: unknown) =>
  fetch(`${host.url}${path}`, { method, headers: { 'content-type': 'application/json' }, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
const scene = async (host: RunningHost, r: string): Promise<RoomScene> => (await (await fetch(`${host.url}/api/rooms/${r}/scene`)).json()) as RoomScene;
const layerEvent = (name: string, layer: string) => (e: { event: string; data: unknown }) => e.event === name && (e.data as { layer?: string }).layer === layer;

describe('scenes on a Redis service', () => {
  it('are shared by every host, computed by the service, and outlive a host', async () => {
    const r = room('scene');
    const stream = await openStream(`${s.b.url}/api/rooms/${r}/events`);
    await stream.next((e) => e.event === 'scene');
    const put = await send(s.a, 'PUT', `/api/rooms/${r}/scene`, {
      layers: [{ id: 'base', source: { specimen: 'count', params: { dir: s.service.runs, delay_ms: 0 } } }],
    });
    expect(put.status, await put.clone().text()).toBe(200);
    expect(
      await send(s.a, 'POST', `/api/rooms/${r}/layers`, { id: 'sq', source: { function: 'square', params: { size: 3 } }, opacity: 0.5 }).then((a) => a.status),
    ).toBe(201);
    expect((await stream.next(layerEvent('computing', 'sq'))).data).toMatchObject({ function_name: 'square', layer: 'sq' });
    expect((await stream.next(layerEvent('result', 'sq'))).data).toMatchObject({ function_name: 'square', layer: 'sq' });
    const shared = await waitFor(async () => {
      const seen = await scene(s.b, r);
      return seen.layers.every((l) => l.result) && seen.layers.length === 2 ? seen : undefined;
    }, 'both layers computed, as host b sees them');
    expect(await scene(s.a, r)).toEqual(shared);
    const sq = shared.layers.find((l) => l.id === 'sq')!;
    const data = await fetch(`${s.b.url}${sq.result!.data_url}`);
    expect(data.status).toBe(200);
    expect(data.headers.get('x-result-id')).toBe(sq.result!.result_id);

    // Both hosts change it at once: every change is kept, each under a version of its own.
    const writes = await Promise.all(
      Array.from({ length: 20 }, (_, i) => send(i % 2 ? s.a : s.b, 'PATCH', `/api/rooms/${r}/layers/${i % 4 ? 'sq' : 'base'}`, { opacity: (i + 1) / 100 })),
    );
    const versions = await Promise.all(writes.map(async (w) => ((await w.json()) as { opacity: number }) && w.status));
    expect(versions.every((status) => status === 200)).toBe(true);
    const after = await scene(s.a, r);
    expect(after.version).toBe(shared.version + 20);
    const seen = await waitFor(() => {
      const v = stream.events.filter((e) => e.event === 'scene').map((e) => (e.data as RoomScene).version);
      return v.at(-1) === after.version ? v : undefined;
    }, 'the last scene event on host b');
    expect(seen).toEqual([...seen].sort((x, y) => x - y));

    // A failing function: host b's followers hear it fail.
    await send(s.a, 'POST', `/api/rooms/${r}/layers`, { id: 'bad', source: { specimen: 'boom' } });
    expect((await stream.next(layerEvent('failed', 'bad'))).data).toMatchObject({
      function_name: 'explode',
      specimen_id: 'boom',
      code: 'SPC_ERR_FUNCTION_FAILED',
    });
    stream.close();

    const snapshot = (await (await send(s.b, 'POST', `/api/rooms/${r}/snapshots`)).json()) as SnapshotCreated;
    await s.a.stop();
    s.a = await s.service.host();
    expect(await scene(s.a, r)).toEqual(await scene(s.b, r));
    const kept = await fetch(`${s.a.url}/api/snapshots/${snapshot.id}`);
    expect(kept.status).toBe(200);
    const blob = ((await kept.json()) as { scene: RoomScene }).scene.layers.find((l) => l.id === 'sq')!.result!.blob_id!;
    expect((await fetch(`${s.a.url}/api/blobs/${blob}`)).status).toBe(200);
  });
});
