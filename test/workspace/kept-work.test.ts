/**
 * What people make is never the cache's to drop, over HTTP on one host with a small byte budget:
 * a published specimen, an upload and every snapshot answered 201 stay served while computed
 * results pour through the budget; once pins would pass it, the new snapshot, upload or publish
 * is refused with 507 and every older one still answers. A snapshot store keeps a room's
 * annotations once however many snapshots hold them.
 */
import type { FastifyInstance } from 'fastify';
import { describe, expect, it } from 'vitest';
import type { RoomScene } from '../../core/wire/scene-types.ts';
import { MemorySnapshotStore } from '../../core/snapshots/memory-snapshot-store.ts';
import { MemoryRoomLog } from '../../core/history/memory-room-log.ts';
import { stableJson } from '../../core/wire/stable-json.ts';
import { createTestApp, room } from '../helpers/create-test-app.ts';
import { npyBytes } from '../helpers/specimens-dir.ts';
import { waitFor } from '../helpers/wait-for.ts';

const OCTET = { 'content-type': 'application/octet-stream' };

async function computed(host: FastifyInstance, r: string): Promise<void> {
  await waitFor(async () => {
    const scene = (await host.inject({ url: `/api/rooms/${r}/scene` })).json() as RoomScene;
    return scene.layers.every((l) => l.result) ? true : undefined;
  }, `every layer of ${r} computed`);
}

/** Fills the budget with computed results nobody keeps. */
async function pourResults(host: FastifyInstance, count: number): Promise<void> {
  for (let i = 0; i < count; i++) {
    const payload = { function_name: 'ramp', kwargs: { n: 20, scale: 1000 + i }, room_id: room() };
    const res = await host.inject({ method: 'POST', url: '/api/processing/invoke', payload });
    expect(res.statusCode).toBe(200);
  }
}

describe('what people make', () => {
  it('outlives computed results, and past the budget a new snapshot is refused (507) while every earlier one answers', async () => {
    const host = await createTestApp({ cacheMaxBytes: 200_000 });
    const published = await host.inject({ method: 'PUT', url: '/api/specimens/kept?filename=kept.npy', headers: OCTET, payload: npyBytes([16, 16, 16]) });
    expect(published.statusCode).toBe(201);
    const uploaded = await host.inject({ method: 'POST', url: '/api/uploads?filename=v.npy', headers: OCTET, payload: npyBytes([8, 8, 8]) });
    expect(uploaded.statusCode).toBe(200);
    const r = room('kept');
    const marks = Array.from({ length: 50 }, (_, i) => ({ kind: 'point', points: [[i, 0, 0]] }));
    expect((await host.inject({ method: 'POST', url: `/api/rooms/${r}/annotations`, payload: marks })).statusCode).toBe(201);
    const taken: string[] = [];
    let refused: { statusCode: number; json(): unknown } | undefined;
    for (let i = 0; i < 20 && !refused; i++) {
      const layers = [{ id: 'v', source: { function: 'ramp', params: { n: 16, scale: i + 1 } } }];
      await host.inject({ method: 'PUT', url: `/api/rooms/${r}/scene`, payload: { layers } });
      await computed(host, r);
      const res = await host.inject({ method: 'POST', url: `/api/rooms/${r}/snapshots` });
      if (res.statusCode === 201) taken.push((res.json() as { id: string }).id);
      else refused = res;
    }
    expect(refused?.statusCode).toBe(507);
    expect(refused?.json()).toMatchObject({ code: 'SPC_ERR_HOST_CANNOT_KEEP' });
    expect(taken.length).toBeGreaterThan(2);
    await pourResults(host, 12);
    for (const id of taken) expect((await host.inject({ url: `/api/snapshots/${id}` })).statusCode, id).toBe(200);
    expect((await host.inject({ url: '/api/specimens/kept/data' })).statusCode).toBe(200);
    const upload = (uploaded.json() as { upload_id: string }).upload_id;
    const measured = await host.inject({ method: 'POST', url: '/api/processing/invoke', payload: { function_name: 'ramp', kwargs: {}, room_id: room() } });
    expect(measured.statusCode).toBe(200);
    expect((await host.inject({ method: 'POST', url: '/api/uploads?filename=v.npy', headers: OCTET, payload: npyBytes([8, 8, 8]) })).json()).toMatchObject({
      upload_id: upload,
    });
    const another = await host.inject({ method: 'POST', url: '/api/uploads?filename=w.npy', headers: OCTET, payload: npyBytes([24, 24, 24]) });
    expect(another.statusCode).toBe(507);
    const publishedMore = await host.inject({ method: 'PUT', url: '/api/specimens/more?filename=more.npy', headers: OCTET, payload: npyBytes([24, 24, 24]) });
    expect(publishedMore.statusCode).toBe(507);
  });

  it('keeps a room’s annotations once however many snapshots hold them', async () => {
    const marks = Array.from({ length: 1000 }, (_, i) => ({ id: `m${i}`, kind: 'point', label: `a "mark", [${i}]`, points: [[i, 0.5, -1 - i]] }));
    const once = stableJson(marks).length;
    const store = new MemorySnapshotStore(new MemoryRoomLog(3600), once * 3);
    const ids: string[] = [];
    for (let i = 0; i < 1000; i++) {
      const json = stableJson({ annotations: marks, scene: { active: null, layers: [] }, view: { opacity: i / 1000 } });
      const id = `${i}`.padStart(64, '0');
      await store.put(id, { json, created: i, pins: null }, 60_000);
      ids.push(id);
    }
    expect(store.bytes).toBeLessThan(once * 2);
    const last = await store.get(ids[999]!);
    expect(JSON.parse(last!.json)).toEqual({ annotations: marks, scene: { active: null, layers: [] }, view: { opacity: 0.999 } });
    for (const id of ids) expect(await store.get(id)).not.toBeNull();
    await expect(store.put('f'.repeat(64), { json: 'x'.repeat(once * 3), created: 0, pins: null }, 60_000)).rejects.toMatchObject({ statusCode: 507 });
    store.close();
  });
});
