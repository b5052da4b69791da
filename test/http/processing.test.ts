import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createTestApp, fileTestApp, room } from '../helpers/create-test-app.ts';
import { waitFor } from '../helpers/wait-for.ts';

/**
 * One host for every case but the one that sets a time-to-live (a host costs more to start than
 * most cases take): a case that counts computes in rooms of its own and counts runs in a folder of its own.
 */
const file = fileTestApp();

describe('functions and schemas', () => {
  it('lists every function with schema and return type', async () => {
    const app = file.app;
    const res = await app.inject({ url: '/api/processing/functions' });
    expect(res.statusCode).toBe(200);
    const byName = Object.fromEntries((res.json() as { name: string }[]).map((f) => [f.name, f]));
    expect(byName.square).toMatchObject({ return_type: 'mesh', schema: { title: 'square', type: 'object' } });
    expect(byName.ramp).toMatchObject({ return_type: 'volume' });
    expect(byName.cloud).toMatchObject({ return_type: 'point_cloud' });
    expect(byName.checker).toMatchObject({ return_type: 'image' });
  });

  it('serves one schema, or 404 for an unknown name', async () => {
    const app = file.app;
    const res = await app.inject({ url: '/api/processing/functions/ramp/schema' });
    expect(res.json()).toMatchObject({
      $schema: 'https://json-schema.org/draft/2020-12/schema',
      title: 'ramp',
      properties: { n: { type: 'integer', default: 4 } },
    });
    expect((await app.inject({ url: '/api/processing/functions/nope/schema' })).statusCode).toBe(404);
  });
});

describe('invoke', () => {
  it('maps positional args by parameter order and kwargs by name, returning JSON', async () => {
    const app = file.app;
    const r = room();
    const res = await app.inject({
      method: 'POST',
      url: '/api/processing/invoke',
      payload: { function_name: 'square', args: [2], kwargs: { label: 'b' }, room_id: r },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      type: 'mesh',
      vertices: [0, 0, 0, 2, 0, 0, 2, 2, 0, 0, 2, 0],
      indices: [0, 1, 2, 0, 2, 3],
      normals: [0, 0, 1, 0, 0, 1, 0, 0, 1, 0, 0, 1],
    });
  });

  it('encodes volumes and images as base64 and point clouds as lists', async () => {
    const app = file.app;
    const vol = (await app.inject({ method: 'POST', url: '/api/processing/invoke', payload: { function_name: 'ramp', kwargs: { n: 2 } } })).json();
    expect(vol).toMatchObject({ type: 'volume', shape: [2, 2, 2], dtype: 'float32', spacing: [0.5, 0.5, 2], origin: [1, 2, 3] });
    const bytes = Buffer.from(vol.data, 'base64');
    expect(Array.from(new Float32Array(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.length)))).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
    const img = (await app.inject({ method: 'POST', url: '/api/processing/invoke', payload: { function_name: 'checker' } })).json();
    expect(img).toMatchObject({ type: 'image', width: 2, height: 2, channels: 3, dtype: 'uint8' });
    expect([...Buffer.from(img.data, 'base64')]).toEqual([0, 0, 0, 255, 255, 255, 0, 0, 0, 255, 255, 255]);
    const pc = (await app.inject({ method: 'POST', url: '/api/processing/invoke', payload: { function_name: 'cloud', args: [2] } })).json();
    expect(pc).toEqual({ type: 'point_cloud', points: [0, 0, 0, 1, 2, 3], colors: [255, 0, 0, 255, 1, 0], scalars: [0, 0.5] });
  });

  it('rejects bad requests with 400/404 naming the problem', async () => {
    const app = file.app;
    const post = (payload: unknown) => app.inject({ method: 'POST', url: '/api/processing/invoke', payload: payload as object });
    expect((await post({ function_name: 'nope' })).statusCode).toBe(404);
    const cases: [unknown, string][] = [
      [{}, 'function_name'],
      [{ function_name: 'square', args: [1, 'a', false, '', 5] }, 'at most 4'],
      [{ function_name: 'square', args: [1], kwargs: { size: 2 } }, "'size'"],
      [{ function_name: 'square', kwargs: { size: 0 } }, "'size'"],
      [{ function_name: 'square', kwargs: { size: 11 } }, "'size'"],
      [{ function_name: 'square', kwargs: { flag: 'yes' } }, "'flag'"],
      [{ function_name: 'square', kwargs: { label: 'z' } }, "'label'"],
      [{ function_name: 'square', kwargs: { extra: 1 } }, "'extra'"],
      [{ function_name: 'ramp', kwargs: { n: 2.5 } }, "'n'"],
      [{ function_name: 'needs' }, "'size'"],
      [{ function_name: 'square', kwargs: [1] }, 'kwargs'],
    ];
    for (const [payload, mention] of cases) {
      const res = await post(payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(res.json().detail, JSON.stringify(payload)).toContain(mention);
    }
    const malformed = await app.inject({
      method: 'POST',
      url: '/api/processing/invoke',
      payload: '{"function_name":',
      headers: { 'content-type': 'application/json' },
    });
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json()).toMatchObject({ status_code: 400 });
  });

  it('a function that throws gives 500 naming the function and its message; the host keeps serving', async () => {
    const app = file.app;
    const res = await app.inject({ method: 'POST', url: '/api/processing/invoke', payload: { function_name: 'explode', kwargs: { message: 'kaboom' } } });
    expect(res.statusCode).toBe(500);
    expect(res.json().detail).toContain('explode');
    expect(res.json().detail).toContain('kaboom');
    const bad = await app.inject({ method: 'POST', url: '/api/processing/invoke', payload: { function_name: 'broken' } });
    expect(bad.statusCode).toBe(500);
    expect(bad.json().detail).toContain('out of range');
    const ok = await app.inject({ method: 'POST', url: '/api/processing/invoke', payload: { function_name: 'square' } });
    expect(ok.statusCode).toBe(200);
  });

  it('a worker thread that dies fails its request, and the pool recovers', async () => {
    const app = file.app;
    const res = await app.inject({ method: 'POST', url: '/api/processing/invoke', payload: { function_name: 'crash', room_id: room() } });
    expect(res.statusCode).toBe(500);
    expect(res.json().detail).toContain('crash');
    const ok = await app.inject({ method: 'POST', url: '/api/processing/invoke', payload: { function_name: 'square', room_id: room() } });
    expect(ok.statusCode).toBe(200);
  });
});

describe('room cache', () => {
  it('serves an identical second request from the cache, and {} equals the explicit defaults', async () => {
    const app = file.app;
    const dir = await mkdtemp(join(tmpdir(), 'vitrine-count-'));
    const r = room();
    const invoke = (kwargs: object) =>
      app.inject({ method: 'POST', url: '/api/processing/invoke', payload: { function_name: 'counted', kwargs: { dir, ...kwargs }, room_id: r } });
    expect((await invoke({})).statusCode).toBe(200);
    expect((await invoke({ tag: 'x', delay_ms: 300 })).statusCode).toBe(200);
    // The same key through /data and /start.
    app.vitrine.registerSpecimen({ id: 'counted-spec', function_name: 'counted_inline' }, () => ({
      vertices: new Float32Array(0),
      indices: new Uint32Array(0),
    }));
    expect((await readFile(join(dir, 'x.runs'), 'utf8')).split('\n').filter(Boolean)).toHaveLength(1);
    const stats = (await app.inject({ url: '/api/processing/cache/stats' })).json();
    expect(stats).toMatchObject({ ttl_seconds: 300 });
    const entry = stats.entries.find((e: { room_id: string }) => e.room_id === r);
    expect(entry).toMatchObject({ function_name: 'counted', access_count: 2 });
    expect(typeof entry.age_seconds).toBe('number');
    expect(stats.total_entries).toBe(stats.entries.length);
  });

  it('shares one computation between identical requests in flight in one room', async () => {
    const app = file.app;
    const dir = await mkdtemp(join(tmpdir(), 'vitrine-count-'));
    const r = room();
    const responses = await Promise.all(
      Array.from({ length: 5 }, () =>
        app.inject({
          method: 'POST',
          url: '/api/processing/invoke',
          payload: { function_name: 'counted', kwargs: { dir, tag: 'herd', delay_ms: 400 }, room_id: r },
        }),
      ),
    );
    for (const res of responses) expect(res.statusCode).toBe(200);
    expect((await readFile(join(dir, 'herd.runs'), 'utf8')).split('\n').filter(Boolean)).toHaveLength(1);
  });

  it('keeps one entry per room: a different key replaces it; rooms are separate; clear drops all', async () => {
    const app = file.app;
    const dir = await mkdtemp(join(tmpdir(), 'vitrine-count-'));
    const [a, b] = [room(), room()];
    const invoke = (tag: string, r: string) =>
      app.inject({ method: 'POST', url: '/api/processing/invoke', payload: { function_name: 'counted', kwargs: { dir, tag, delay_ms: 1 }, room_id: r } });
    await invoke('one', a);
    await invoke('two', a);
    await invoke('one', a);
    await invoke('one', b);
    const runs = async (tag: string) => (await readFile(join(dir, `${tag}.runs`), 'utf8')).split('\n').filter(Boolean).length;
    expect(await runs('one')).toBe(3);
    expect(await runs('two')).toBe(1);
    const stats = (await app.inject({ url: '/api/processing/cache/stats' })).json();
    expect(stats.entries.filter((e: { room_id: string }) => e.room_id === a)).toHaveLength(1);
    const clear = await app.inject({ method: 'POST', url: '/api/processing/cache/clear' });
    expect(clear.statusCode).toBe(200);
    expect(clear.json()).toEqual({ status: 'cleared' });
    expect((await app.inject({ url: '/api/processing/cache/stats' })).json().total_entries).toBe(0);
  });

  it('expires entries after the time-to-live', async () => {
    const app = await createTestApp({ cacheTtlSeconds: 0.2 });
    const dir = await mkdtemp(join(tmpdir(), 'vitrine-count-'));
    const r = room();
    const invoke = () =>
      app.inject({
        method: 'POST',
        url: '/api/processing/invoke',
        payload: { function_name: 'counted', kwargs: { dir, tag: 'ttl', delay_ms: 1 }, room_id: r },
      });
    await invoke();
    // The cache's own clock says when the entry is past its time-to-live: stats leave it out then.
    const roomEntries = async () =>
      (await app.inject({ url: '/api/processing/cache/stats' })).json().entries.filter((e: { room_id: string }) => e.room_id === r).length;
    await waitFor(async () => ((await roomEntries()) === 0 ? true : undefined), 'the room entry to expire');
    await invoke();
    expect((await readFile(join(dir, 'ttl.runs'), 'utf8')).split('\n').filter(Boolean)).toHaveLength(2);
  });

  it('defaults the room to "service"', async () => {
    const app = file.app;
    await app.inject({ method: 'POST', url: '/api/processing/invoke', payload: { function_name: 'square' } });
    const stats = (await app.inject({ url: '/api/processing/cache/stats' })).json();
    expect(stats.entries.map((e: { room_id: string }) => e.room_id)).toContain('service');
  });
});
