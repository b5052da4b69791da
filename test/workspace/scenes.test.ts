/**
 * A room's scene over real HTTP on one host: layers added, changed and removed with their
 * events (`scene` with every change, `computing` then `result` or `failed` naming the layer,
 * the active layer's as the room's own), each layer's result set in the scene and readable at
 * its `data_url`; `If-Match` against a moved scene; the room's entry as the active layer
 * (`PUT /entry` makes a scene of one, and GET entry keeps its shape); a late joiner's first
 * events; ETag and 304 on the scene.
 */
import { describe, expect, it } from 'vitest';
import type { RoomScene, SceneLayer } from '../../core/wire/scene-types.ts';
import { addDynamicSpecimen, fileTestApp } from '../helpers/create-test-app.ts';
import { room } from '../helpers/room.ts';
import { openStream, type StreamReader } from '../helpers/sse-reader.ts';
import { waitFor } from '../helpers/wait-for.ts';

const JSON_TYPE = { 'content-type': 'application/json' };
const server = fileTestApp();

const send = (method: string, path: string, body?: unknown, headers: Record<string, string> = {}) =>
  fetch(`${server.url}${path}`, { method, headers: { ...JSON_TYPE, ...headers }, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
const scene = async (r: string): Promise<RoomScene> => (await (await fetch(`${server.url}/api/rooms/${r}/scene`)).json()) as RoomScene;
const layerOf = (s: RoomScene, id: string): SceneLayer | undefined => s.layers.find((l) => l.id === id);
const withResult = (r: string, id: string) =>
  waitFor(async () => layerOf(await scene(r), id)?.result && (await scene(r)), `layer ${id} of ${r} to have its result`);
const eventOf = (stream: StreamReader, name: string, layer: string | undefined, from = 0) =>
  stream.next((e) => e.event === name && (e.data as { layer?: string } | null)?.layer === layer, from);

describe('a room scene', () => {
  it('answers an empty scene with its version as ETag, and 304 to it', async () => {
    const r = room('scene');
    const answer = await fetch(`${server.url}/api/rooms/${r}/scene`);
    expect(await answer.json()).toEqual({ version: 0, layers: [], active: null });
    expect(answer.headers.get('etag')).toBe('"0"');
    expect(answer.headers.get('cache-control')).toBe('no-cache');
    expect((await fetch(`${server.url}/api/rooms/${r}/scene`, { headers: { 'if-none-match': '"0"' } })).status).toBe(304);
  });

  it('adds, changes and removes layers, computing each through the room cache, with their events', async () => {
    const r = room('scene');
    const stream = await openStream(`${server.url}/api/rooms/${r}/events`);
    expect((await stream.next((e) => e.event === 'scene')).data).toEqual({ version: 0, layers: [], active: null });
    expect(stream.events.map((e) => e.event)).toEqual(['state', 'view', 'scene']);

    const first = await send('POST', `/api/rooms/${r}/layers`, { source: { function: 'ramp', params: { n: 4 } }, opacity: 0.5, colormap: 'magma' });
    expect(first.status).toBe(201);
    const ramp = (await first.json()) as SceneLayer;
    expect(ramp).toMatchObject({ id: 'ramp', name: 'ramp', kind: 'image', visible: true, opacity: 0.5, blending: 'translucent', colormap: 'magma' });
    // The first layer is the active one: the room's entry, computed in the room's own slot, its events naming it.
    expect((await eventOf(stream, 'computing', 'ramp')).data).toMatchObject({ function_name: 'ramp', params: { n: 4 }, layer: 'ramp' });
    expect((await eventOf(stream, 'result', 'ramp')).data).toMatchObject({ function_name: 'ramp', params: { n: 4 }, layer: 'ramp' });
    const computed = await withResult(r, 'ramp');
    expect(computed.active).toBe('ramp');
    expect(layerOf(computed, 'ramp')!.result).toMatchObject({ type: 'volume', data_url: `/api/rooms/${r}/layers/ramp/data` });
    expect(await (await fetch(`${server.url}/api/rooms/${r}/entry`)).json()).toMatchObject({
      function_name: 'ramp',
      params: { n: 4, scale: 1 },
      result_id: layerOf(computed, 'ramp')!.result!.result_id,
    });

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
    const data = await fetch(`${server.url}${sq.result!.data_url}`);
    expect(data.status).toBe(200);
    expect(data.headers.get('x-result-id')).toBe(sq.result!.result_id);
    const blob = await fetch(`${server.url}/api/blobs/${sq.result!.blob_id}`);
    expect(Buffer.from(await blob.arrayBuffer())).toEqual(Buffer.from(await data.arrayBuffer()));
    expect(await (await fetch(`${server.url}/api/rooms/${r}/entry`)).json()).toMatchObject({ function_name: 'ramp' });

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
    const put = await send('PUT', `/api/rooms/${r}/scene`, {
      layers: [{ source: { specimen: 'vol' } }, { id: 'tri', source: { specimen: 'tri' }, opacity: 0.4 }],
    });
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

    const late = await openStream(`${server.url}/api/rooms/${r}/events`);
    await late.next((e) => e.event === 'scene');
    expect(late.events.slice(0, 3).map((e) => e.event)).toEqual(['state', 'view', 'scene']);
    expect(late.events[2]!.data).toEqual(current);
    expect(late.events[0]!.data).toMatchObject({ function_name: null, specimen_id: 'tri' });
    late.close();
    const fresh = await send('PUT', `/api/rooms/${r}/scene`, { layers: [], active: null }, { 'if-match': `"${current.version}"` });
    expect(await fresh.json()).toEqual({ version: current.version + 1, layers: [], active: null });
  });
});

describe('what a scene refuses', () => {
  it('names each bad field of a request, and refuses what /data would', async () => {
    const r = room('scene');
    const cases: [string, string, unknown, number, RegExp][] = [
      ['POST', 'layers', { source: { function: 'ramp' }, opacity: 2 }, 400, /^layer\.opacity must be between 0 and 1, got 2$/],
      [
        'PUT',
        'scene',
        { layers: [{ source: { function: 'ramp' } }, { source: { function: 'ramp' } }, { source: { function: 'ramp' }, opacity: -1 }] },
        400,
        /^layers\[2\]\.opacity must be between 0 and 1/,
      ],
      ['POST', 'layers', { source: { function: 'ramp', params: { n: 'big' } } }, 400, /^layer\.source: .*'n'/],
      ['POST', 'layers', { source: { function: 'nope' } }, 404, /^layer\.source: function 'nope' is not registered/],
      ['POST', 'layers', { source: { specimen: 'nope' } }, 404, /^layer\.source: specimen 'nope' not found/],
      ['POST', 'layers', { source: { specimen: 'vol', params: { a: 1 } } }, 400, /^layer\.source\.params cannot be given: specimen 'vol' is static/],
      ['POST', 'layers', { source: { function: 'square' }, kind: 'image' }, 400, /^layer\.kind 'image' cannot show a mesh result/],
      ['POST', 'layers?index=x', { source: { function: 'square' } }, 400, /^index must be a position/],
      ['PUT', 'scene', { layers: [], active: 'ghost' }, 400, /^active names 'ghost', which is not one of the layers given/],
      ['PUT', 'scene', { layer: [] }, 400, /^body\.layer is not a member here/],
    ];
    for (const [method, path, body, status, pattern] of cases) {
      const answer = await send(method, `/api/rooms/${r}/${path}`, body);
      expect(answer.status, `${method} ${path} ${JSON.stringify(body)}`).toBe(status);
      expect(((await answer.json()) as { detail: string }).detail).toMatch(pattern);
    }
    expect(await scene(r)).toEqual({ version: 0, layers: [], active: null });
    expect((await send('PUT', `/api/rooms/${r}/scene`, { layers: [] }, { 'if-match': 'soon' })).status).toBe(400);
    expect((await send('PATCH', `/api/rooms/${r}/layers/ghost`, { opacity: 1 })).status).toBe(404);
    expect((await fetch(`${server.url}/api/rooms/${r}/layers/ghost/data`)).status).toBe(404);
  });

  it('takes the 409 of a taken id, the 400 of a 33rd layer, and the 403s of writes from another site or Host', async () => {
    const r = room('scene');
    const layers = Array.from({ length: 32 }, (_, i) => ({ id: `l${i}`, source: { specimen: 'tri' } }));
    expect((await send('PUT', `/api/rooms/${r}/scene`, { layers, active: null })).status).toBe(200);
    const taken = await send('POST', `/api/rooms/${r}/layers`, { id: 'l3', source: { specimen: 'tri' } });
    expect(taken.status).toBe(409);
    expect((await send('DELETE', `/api/rooms/${r}/layers/l31`)).status).toBe(204);
    expect((await send('POST', `/api/rooms/${r}/layers`, { id: 'l31', source: { specimen: 'tri' } })).status).toBe(201);
    const full = await send('POST', `/api/rooms/${r}/layers`, { source: { specimen: 'tri' } });
    expect(full.status).toBe(400);
    expect(((await full.json()) as { detail: string }).detail).toMatch(/at most 32 layers/);
    const crossSite = await send(
      'POST',
      `/api/rooms/${r}/layers`,
      { source: { specimen: 'tri' } },
      { origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' },
    );
    expect(crossSite.status).toBe(403);
    const { request } = await import('node:http');
    const foreign = await new Promise<number>((resolve, reject) => {
      const target = new URL(`${server.url}/api/rooms/${r}/layers/l0`);
      const req = request({ host: target.hostname, port: target.port, path: target.pathname, method: 'DELETE', headers: { host: 'evil.example' } }, (res) =>
        resolve(res.statusCode ?? 0),
      );
      req.on('error', reject);
      req.end();
    });
    expect(foreign).toBe(403);
    expect((await scene(r)).layers).toHaveLength(32);
  });
});

describe('an affine', () => {
  it('is taken as 16 numbers or as 4 rows of 4, and kept as the 16 numbers row after row', async () => {
    const r = room('scene');
    const rows = [
      [2, 0, 0, 1],
      [0, 1, 0, 0],
      [0, 0, 1, 0],
      [0, 0, 0, 1],
    ];
    const added = await send('POST', `/api/rooms/${r}/layers`, { id: 'tri', source: { specimen: 'tri' }, affine: rows });
    expect(added.status).toBe(201);
    expect(((await added.json()) as SceneLayer).affine).toEqual(rows.flat());
    const moved = rows.map((row, i) => row.map((v, j) => (i === 1 && j === 3 ? 5 : v)));
    const patched = await send('PATCH', `/api/rooms/${r}/layers/tri`, { affine: moved });
    expect(((await patched.json()) as SceneLayer).affine).toEqual(moved.flat());
    expect((await send('PATCH', `/api/rooms/${r}/layers/tri`, { affine: rows.flat() })).status).toBe(200);
    expect(layerOf(await scene(r), 'tri')!.affine).toEqual(rows.flat());

    const refused: [unknown, RegExp][] = [
      [rows.slice(0, 3), /^layer\.affine must be a 4×4 matrix, row-major: 16 finite numbers, or 4 rows of 4$/],
      [[...rows.slice(0, 3), [0, 0, 1]], /^layer\.affine\[3\] must be a row of 4 finite numbers$/],
      [[...rows.slice(0, 3), [0, 0, 0, 'x']], /^layer\.affine\[3\]\[3\] must be a finite number/],
      [[...rows.slice(0, 3), 1], /^layer\.affine\[3\] must be a row of 4 finite numbers$/],
    ];
    for (const [affine, pattern] of refused) {
      const answer = await send('PATCH', `/api/rooms/${r}/layers/tri`, { affine });
      expect(answer.status, JSON.stringify(affine)).toBe(400);
      expect(((await answer.json()) as { detail: string }).detail).toMatch(pattern);
    }
  });
});

describe('the entry is the active layer', () => {
  it('makes a one-layer scene on PUT /entry, follows /data that changes the entry, and GET entry keeps its shape', async () => {
    const r = room('scene');
    const put = await send('PUT', `/api/rooms/${r}/entry`, { function: 'square', params: { size: 3 } });
    const entry = (await put.json()) as Record<string, unknown>;
    expect(Object.keys(entry).sort()).toEqual(['blob_id', 'function_name', 'params', 'result_id', 'specimen_id', 'type']);
    const one = await scene(r);
    expect(one.layers).toHaveLength(1);
    expect(one).toMatchObject({
      active: 'square',
      layers: [{ id: 'square', kind: 'mesh', source: { function: 'square' }, result: { result_id: entry.result_id } }],
    });

    await fetch(`${server.url}/api/specimens/dyn-square/data?room_id=${r}&params=${encodeURIComponent('{"size":4}')}`);
    const followed = await waitFor(async () => {
      const s = await scene(r);
      return s.layers[0]?.source.specimen === 'dyn-square' && s.layers[0].result ? s : undefined;
    }, 'the active layer to follow the entry');
    expect(followed.layers).toHaveLength(1);
    expect(followed.layers[0]).toMatchObject({ id: 'square', source: { specimen: 'dyn-square', params: { size: 4 } } });
    expect(await (await fetch(`${server.url}/api/rooms/${r}/entry`)).json()).toMatchObject({
      specimen_id: 'dyn-square',
      params: { size: 4 },
      result_id: followed.layers[0]!.result!.result_id,
    });

    // Another layer made active: the room's entry moves to it (a copy, nothing computed), and back.
    await send('POST', `/api/rooms/${r}/layers`, { id: 'ramp', source: { function: 'ramp' } });
    const ramp = layerOf(await withResult(r, 'ramp'), 'ramp')!;
    await send('PATCH', `/api/rooms/${r}/layers/ramp`, { active: true });
    await waitFor(
      async () => ((await (await fetch(`${server.url}/api/rooms/${r}/entry`)).json()) as { function_name: string }).function_name === 'ramp' || undefined,
      'the entry to move',
    );
    expect(await (await fetch(`${server.url}/api/rooms/${r}/entry`)).json()).toMatchObject({ function_name: 'ramp', result_id: ramp.result!.result_id });
    const data = await fetch(`${server.url}/api/rooms/${r}/layers/square/data`);
    expect(data.headers.get('x-result-id')).toBe(followed.layers[0]!.result!.result_id);
    expect((await scene(r)).active).toBe('ramp');
  });

  it('names the active layer in its computing and result events, however its source changed', async () => {
    const r = room('scene');
    const stream = await openStream(`${server.url}/api/rooms/${r}/events`);
    await stream.next((e) => e.event === 'scene');
    // No scene yet: the entry's events name no layer; the scene event that follows names the layer it became.
    await send('PUT', `/api/rooms/${r}/entry`, { function: 'ramp', params: { n: 3 } });
    expect((await eventOf(stream, 'result', undefined)).data).toMatchObject({ function_name: 'ramp', params: { n: 3 } });
    expect((await stream.next((e) => e.event === 'scene' && (e.data as RoomScene).active === 'ramp')).data).toMatchObject({ layers: [{ id: 'ramp' }] });
    await withResult(r, 'ramp');

    const changes: [string, () => Promise<Response>, number][] = [
      ['PATCH', () => send('PATCH', `/api/rooms/${r}/layers/ramp`, { source: { function: 'ramp', params: { n: 5 } } }), 5],
      ['PUT scene', () => send('PUT', `/api/rooms/${r}/scene`, { layers: [{ id: 'ramp', source: { function: 'ramp', params: { n: 6 } } }] }), 6],
      ['PUT entry', () => send('PUT', `/api/rooms/${r}/entry`, { function: 'ramp', params: { n: 7 } }), 7],
      ['/invoke', () => send('POST', '/api/processing/invoke', { function_name: 'ramp', kwargs: { n: 8 }, room_id: r }), 8],
    ];
    for (const [what, change, n] of changes) {
      const from = stream.events.length;
      expect((await change()).status, what).toBe(200);
      const computing = await stream.next((e) => e.event === 'computing' && (e.data as { params: { n: number } }).params.n === n, from);
      const result = await stream.next((e) => e.event === 'result' && (e.data as { params: { n: number } }).params.n === n, from);
      expect(computing.data, what).toMatchObject({ function_name: 'ramp', job_id: null, layer: 'ramp' });
      // Every member the entry's result had is there as it was, `layer` beside them.
      const members = ['blob_id', 'by', 'function_name', 'layer', 'params', 'result_id', 'specimen_id', 'type'];
      expect(Object.keys(result.data as object).sort(), what).toEqual(members);
    }
    // Restoring a snapshot computes the active layer again: its events name it too.
    const { id } = (await (await send('POST', `/api/rooms/${r}/snapshots`)).json()) as { id: string };
    await send('PUT', `/api/rooms/${r}/scene`, { layers: [{ id: 'other', source: { function: 'ramp', params: { n: 9 } } }] });
    await withResult(r, 'other');
    const from = stream.events.length;
    expect((await send('PUT', `/api/rooms/${r}/scene`, { snapshot: id })).status).toBe(200);
    const restored = await stream.next((e) => e.event === 'result' && (e.data as { params: { n: number } }).params.n === 8, from);
    expect(restored.data).toMatchObject({ layer: 'ramp' });
    stream.close();
  });
});

describe('failed computations', () => {
  it('tell every follower: computing then failed, for a layer and for the room entry', async () => {
    const r = room('scene');
    await send('PUT', `/api/rooms/${r}/scene`, { layers: [{ id: 'base', source: { specimen: 'tri' } }] });
    const stream = await openStream(`${server.url}/api/rooms/${r}/events`);
    await stream.next((e) => e.event === 'scene');
    expect((await send('POST', `/api/rooms/${r}/layers`, { id: 'bad', source: { function: 'explode', params: { message: 'no luck' } } })).status).toBe(201);
    const computing = await eventOf(stream, 'computing', 'bad');
    const failed = await eventOf(stream, 'failed', 'bad');
    expect(stream.events.indexOf(computing)).toBeLessThan(stream.events.indexOf(failed));
    expect(failed.data).toMatchObject({ function_name: 'explode', specimen_id: null, job_id: null, code: 'SPC_ERR_FUNCTION_FAILED', layer: 'bad' });
    expect((failed.data as { detail: string }).detail).toMatch(/no luck/);

    // The room's own computations: an /invoke, and a job started with /start.
    const from = stream.events.length;
    await fetch(`${server.url}/api/processing/invoke`, { method: 'POST', headers: JSON_TYPE, body: JSON.stringify({ function_name: 'explode', room_id: r }) });
    // They are the active layer's: their events name it.
    const plain = await eventOf(stream, 'failed', 'base', from);
    expect(plain.data).toMatchObject({ function_name: 'explode', code: 'SPC_ERR_FUNCTION_FAILED', job_id: null, layer: 'base' });
    addDynamicSpecimen(server.app, 'boom', 'explode');
    const job = ((await (await send('POST', '/api/specimens/boom/start', { params: { message: 'job gone wrong' }, room_id: r })).json()) as { job_id: string })
      .job_id;
    const jobFailed = await stream.next((e) => e.event === 'failed' && (e.data as { job_id: string | null }).job_id === job, from);
    expect(jobFailed.data).toMatchObject({ function_name: 'explode', specimen_id: 'boom', code: 'SPC_ERR_FUNCTION_FAILED', layer: 'base' });
    expect((jobFailed.data as { detail: string }).detail).toMatch(/job gone wrong/);
    stream.close();
  });
});
