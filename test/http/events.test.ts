/**
 * Host events over Server-Sent Events (`GET /api/events`) and swapping one plugin into a
 * running host: the stream opens with `hello`, a swap publishes `reload` with the plugin's
 * functions and specimens, other plugins and their cache entries stay, and the swapped
 * plugin's entries are dropped.
 */
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createTestApp, room } from '../helpers/create-test-app.ts';
import { fixturePluginsDir } from '../helpers/fixture-plugins.ts';
import { openStream } from '../helpers/sse-reader.ts';

describe('host events and plugin swaps', () => {
  it('streams hello, then a reload event when one plugin is swapped, keeping other cache entries', async () => {
    const pluginsDir = mkdtempSync(path.join(tmpdir(), 'vitrine-swap-'));
    cpSync(await fixturePluginsDir(), pluginsDir, { recursive: true });
    const app = await createTestApp({
      pluginsDir,
      meshFunctions: { inline_tri: () => ({ vertices: new Float32Array(9), indices: new Uint32Array([0, 1, 2]) }) },
    });
    const url = await app.listen({ host: '127.0.0.1', port: 0 });

    const [roomA, roomB] = [room(), room()];
    const invoke = (fn: string, roomId: string) =>
      app.inject({ method: 'POST', url: '/api/processing/invoke', payload: { function_name: fn, room_id: roomId } });
    expect((await invoke('square', roomA)).statusCode).toBe(200);
    expect((await invoke('inline_tri', roomB)).statusCode).toBe(200);

    const events = await openStream(`${url}/api/events`);
    await events.next((e) => e.event === 'hello');
    const swap = await app.vitrine.reloadPlugin('host-fixtures');
    expect(swap.functions).toContain('square');
    const reload = await events.next((e) => e.event === 'reload');
    events.close();
    expect(events.events[0]?.event).toBe('hello');
    expect(reload.data).toMatchObject({ plugin: 'host-fixtures', removed: false, functions: expect.arrayContaining(['square']) });

    const stats = (await app.inject({ method: 'GET', url: '/api/processing/cache/stats' })).json() as { entries: { room_id: string }[] };
    expect(stats.entries.map((e) => e.room_id)).toEqual([roomB]);
    expect((await invoke('square', roomA)).statusCode).toBe(200);
  });

  it('removes a plugin whose bundle folder is gone', async () => {
    const pluginsDir = mkdtempSync(path.join(tmpdir(), 'vitrine-swap-'));
    cpSync(await fixturePluginsDir(), pluginsDir, { recursive: true });
    const app = await createTestApp({ pluginsDir });
    const listed = (await app.inject({ method: 'GET', url: '/api/processing/functions' })).json() as { name: string }[];
    expect(listed.length).toBeGreaterThan(0);
    rmSync(path.join(pluginsDir, 'host-fixtures'), { recursive: true });
    const swap = await app.vitrine.reloadPlugin('host-fixtures');
    expect(swap).toMatchObject({ removed: true, functions: [], specimens: [] });
    const res = await app.inject({ method: 'POST', url: '/api/processing/invoke', payload: { function_name: 'square' } });
    expect(res.statusCode).toBe(404);
  });
});
