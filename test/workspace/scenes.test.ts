/**
 * A room's scene over real HTTP on one host: layers added, changed and removed with their
 * events (`scene` with every change, `computing` then `result` or `failed` naming the layer,
 * the active layer's as the room's own), each layer's result set in the scene and readable at
 * its `data_url`; `If-Match` against a moved scene; the room's entry as the active layer
 * (`PUT /entry` makes a scene of one, and GET entry keeps its shape); a late joiner's first
 * events; ETag and 304 on the scene.
 */
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../core/app.ts';
import type { RoomScene, SceneLayer } from '../../core/client/scene-types.ts';
import { fixturePluginsDir } from '../helpers/fixture-plugins.ts';
import { room } from '../helpers/room.ts';
import { makeSpecimensDir } from '../helpers/specimens-dir.ts';
import { openStream, type StreamReader } from '../helpers/sse-reader.ts';
import { waitFor } from '../helpers/wait-for.ts';

const JSON_TYPE = { 'content-type': 'application/json' };
let url: string;
let app: FastifyInstance;

beforeAll(async () => {
  app = await createApp({ pluginsDir: await fixturePluginsDir(), specimensDir: await makeSpecimensDir(), logLevel: false, poolSize: 2, viewer: false });
  url = await app.listen({ host: '127.0.0.1', port: 0 });
});
afterAll(() => app?.close());

const send = (method: string, path: string, body?: unknown, headers: Record<string, string> = {}) =>
  fetch(`${url}${path}`, { method, headers: { ...JSON_TYPE, ...headers }, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
const scene = async (r: string): Promise<RoomScene> => (await (await fetch(`${url}/api/rooms/${r}/scene`)).json()) as RoomScene;
const layerOf = (s: RoomScene, id: string): SceneLayer | undefined => s.layers.find((l) => l.id === id);
const withResult = (r: string, id: string) => waitFor(async () => layerOf(await scene(r), id)?.result && (await scene(r)), `layer ${id} of ${r} to have its result`);
const eventOf = (stream: StreamReader, name: string, layer: string | undefined, from = 0) =>
  stream.next((e) => e.event === name && (e.data as { layer?: string } | null)?.layer === layer, from);

describe('a room scene', () => {
  it('answers an empty scene with its version as ETag, and 304 to it', async () => {
    const r = room('scene');
    const answer = await fetch(`${url}/api/rooms/${r}/scene`);
    expect(await answer.json()).toEqual({ version: 0, layers: [], active: null });
    expect(answer.headers.get('etag')).toBe('"0"');
    expect(answer.headers.get('cache-control')).toBe('no-cache');
    expect((await fetch(`${url}/api/rooms/${r}/scene`, { headers: { 'if-none-match': '"0"' } })).status).toBe(304);
  });

  it('adds, changes and removes layers, computing each through the room cache, with their events', async () => {
    const r = room('scene');
    const stream = await openStream(`${url}/api/rooms/${r}/events`);
    expect((await stream.next((e) => e.event === 'scene')).data).toEqual({ version: 0, layers: [], active: null });
    expect(stream.events.map((e) => e.event)).toEqual(['state', 'view', 'scene']);

    const first = await send('POST', `/api/rooms/${r}/layers`, { source: { function: 'ramp', params: { n: 4 } }, opacity: 0.5, colormap: 'magma' });
    expect(first.status).toBe(201);
    const ramp = (await first.json()) as SceneLayer;
    expect(ramp).toMatchObject({ id: 'ramp', name: 'ramp', kind: 'image', visible: true, opacity: 0.5, blending: 'translucent', colormap: 'magma' });
    // The first layer is the active one: the room's entry, computed in the room's own slot.
    expect((await eventOf(stream, 'result', undefined)).data).toMatchObject({ function_name: 'ramp', params: { n: 4 } });
    const computed = await withResult(r, 'ramp');
    expect(computed.active).toBe('ramp');
    expect(layerOf(computed, 'ramp')!.result).toMatchObject({ type: 'volume', data_url: `/api/rooms/${r}/layers/ramp/data` });
    expect(await (await fetch(`${url}/api/rooms/${r}/entry`)).json()).toMatchObject({ function_name: 'ramp', params: { n: 4, scale: 1 }, result_id: layerOf(computed, 'ramp')!.result!.result_id });

    const from = stream.events.length;
    const second = await send('POST', `/api/rooms/${r}/layers?index=0`, { id: 'sq', source: { function: 'square', params: { size: 2 } } });
    expect(second.status).toBe(201);
    const computing = await eventOf(stream, 'computing', 'sq', from);
    const result = await eventOf(stream, 'result', 'sq', from);
    expect(stream.events.indexOf(computing)).toBeLessThan(stream.events.indexOf(result));
    expect(result.data).toMatchObject({ function_name: 'square', params: { size: 2 }, layer: 'sq' });
    const both = await withResult(r, 'sq');
    expect(both.layers.map((l) => l.id)).toEqual(['sq', 'ramp']);
    expect(both.active).toBe('ramp');
    const sq = layerOf(both, 'sq')!;
    expect(sq.kind).toBe('mesh');
    // Its data: the same bytes as the blob its result names; the room's entry did not move.
    const data = await fetch(`${url}${sq.result!.data_url}`);
    expect(data.status).toBe(200);
    expect(data.headers.get('x-result-id')).toBe(sq.result!.result_id);
    const blob = await fetch(`${url}/api/blobs/${sq.result!.blob_id}`);
    expect(Buffer.from(await blob.arrayBuffer())).toEqual(Buffer.from(await data.arrayBuffer()));
    expect(await (await fetch(`${url}/api/rooms/${r}/entry`)).json()).toMatchObject({ function_name: 'ramp' });

    const patched = await send('PATCH', `/api/rooms/${r}/layers/sq`, { opacity: 0.25, visible: false });
    expect(await patched.json()).toMatchObject({ id: 'sq', opacity: 0.25, visible: false, result: sq.result });
    const back = await (await send('PATCH', `/api/rooms/${r}/layers/sq`, { opacity: null, name: 'Square' })).json();
    expect(back).toMatchObject({ opacity: 1, name: 'Square' });
    const versions = stream.events.filter((e) => e.event === 'scene').map((e) => (e.data as RoomScene).version);
    expect(versions).toEqual([...versions].sort((a, b) => a - b));

    expect((await send('DELETE', `/api/rooms/${r}/layers/sq`)).status).toBe(204);
    expect((await send('DELETE', `/api/rooms/${r}/layers/sq`)).status).toBe(404);
    expect((await scene(r)).layers.map((l) => l.id)).toEqual(['ramp']);
    stream.close();
  });

  it('refuses a stale If-Match with 412 and changes nothing; a late joiner gets the whole scene first', async () => {
    const r = room('scene');
    const put = await send('PUT', `/api/rooms/${r}/scene`, { layers: [{ source: { specimen: 'vol' } }, { id: 'tri', source: { specimen: 'tri' }, opacity: 0.4 }] });
    expect(put.status).toBe(200);
    const made = (await put.json()) as RoomScene;
    expect(made).toMatchObject({ version: 1, active: 'tri' });
    expect(put.headers.get('etag')).toBe('"1"');
    expect(made.layers.map((l) => [l.id, l.kind])).toEqual([['vol', 'image'], ['tri', 'mesh']]);
    await withResult(r, 'vol');
    const current = await withResult(r, 'tri');
    const stale = await send('PUT', `/api/rooms/${r}/scene`, { layers: [] }, { 'if-match': '"1"' });
    expect(stale.status).toBe(412);
    expect(((await stale.json()) as { detail: string }).detail).toMatch(/If-Match names version 1, the scene is at version \d+/);
    expect(await scene(r)).toEqual(current);

    const late = await openStream(`${url}/api/rooms/${r}/events`);
    await late.next((e) => e.event === 'scene');
    expect(late.events.slice(0, 3).map((e) => e.event)).toEqual(['state', 'view', 'scene']);
    expect(late.events[2]!.data).toEqual(current);
    expect(late.events[0]!.data).toMatchObject({ function_name: null, specimen_id: 'tri' });
    late.close();
    const fresh = await send('PUT', `/api/rooms/${r}/scene`, { layers: [], active: null }, { 'if-match': `"${current.version}"` });
    expect(await fresh.json()).toEqual({ version: current.version + 1, layers: [], active: null });
  });
});
