/**
 * A room as a shared workspace over real HTTP: `PUT /entry` shows a static specimen, a dynamic
 * one or a function's result to everyone (the `result` event; `GET /entry` answers it, and the
 * latest of a shown specimen and the room's cache entry wins); `PUT /view` checks each setting,
 * merges it into the room's view and sends the `view` event, which a stream also gets right
 * after `state` when it connects.
 */
import { describe, expect, it } from 'vitest';
import { createTestApp, room } from '../helpers/create-test-app.ts';
import { openStream } from '../helpers/sse-reader.ts';

const JSON_TYPE = { 'content-type': 'application/json' };
const put = (url: string, body: unknown) => fetch(url, { method: 'PUT', headers: JSON_TYPE, body: JSON.stringify(body) });

async function listening(): Promise<string> {
  const app = await createTestApp();
  return app.listen({ host: '127.0.0.1', port: 0 });
}

describe('room entry', () => {
  it('shows a static specimen, then a function result, to a following stream; GET answers the latest', async () => {
    const url = await listening();
    const r = room();
    expect(await (await fetch(`${url}/api/rooms/${r}/entry`)).json()).toBeNull();
    const stream = await openStream(`${url}/api/rooms/${r}/events`);
    expect((await stream.next()).event).toBe('state');

    const shown = await put(`${url}/api/rooms/${r}/entry`, { specimen: 'vol' });
    expect(shown.status).toBe(200);
    const staticEntry = { function_name: null, specimen_id: 'vol', params: {}, type: 'volume' };
    expect(await shown.json()).toEqual(staticEntry);
    expect((await stream.next((e) => e.event === 'result')).data).toEqual({ ...staticEntry, by: 'anonymous' });
    expect(await (await fetch(`${url}/api/rooms/${r}/entry`)).json()).toEqual(staticEntry);

    const from = stream.events.length;
    const computed = await put(`${url}/api/rooms/${r}/entry`, { function: 'square', params: { size: 3 } });
    expect(computed.status).toBe(200);
    const entry = (await computed.json()) as Record<string, unknown>;
    expect(entry).toMatchObject({ function_name: 'square', specimen_id: null, params: { size: 3 }, type: 'mesh' });
    expect((await stream.next((e) => e.event === 'result', from)).data).toMatchObject({ function_name: 'square', params: { size: 3 } });
    expect(await (await fetch(`${url}/api/rooms/${r}/entry`)).json()).toEqual(entry);

    // The static specimen again, then the same function call: a cache hit takes the room back.
    await put(`${url}/api/rooms/${r}/entry`, { specimen: 'vol' });
    const back = await put(`${url}/api/rooms/${r}/entry`, { specimen: 'dyn-square', params: { size: 4 } });
    expect(await back.json()).toMatchObject({ function_name: 'square', specimen_id: 'dyn-square', params: { size: 4 } });
    await put(`${url}/api/rooms/${r}/entry`, { specimen: 'vol' });
    const hit = await put(`${url}/api/rooms/${r}/entry`, { specimen: 'dyn-square', params: { size: 4 } });
    expect(await hit.json()).toMatchObject({ specimen_id: 'dyn-square', params: { size: 4 } });
    const late = await openStream(`${url}/api/rooms/${r}/events`);
    expect((await late.next()).data).toMatchObject({ specimen_id: 'dyn-square', params: { size: 4 } });
    stream.close();
    late.close();
  });

  it('refuses what it cannot show with a 4xx naming it', async () => {
    const url = await listening();
    const r = room();
    const cases: [unknown, number, RegExp][] = [
      [{}, 400, /exactly one of 'specimen'/],
      [{ specimen: 'vol', function: 'square' }, 400, /exactly one of 'specimen'/],
      [{ specimen: 'vol', params: { a: 1 } }, 400, /is static: it takes no params/],
      [{ specimen: 'nope' }, 404, /specimen 'nope' not found/],
      [{ function: 'nope' }, 404, /function 'nope' is not registered/],
      [{ function: 'square', params: { size: 'big' } }, 400, /size/],
      [{ specimen: 'vol', colour: 'red' }, 400, /unknown field 'colour'/],
      [{ specimen: 5 }, 400, /specimen/],
    ];
    for (const [body, status, pattern] of cases) {
      const res = await put(`${url}/api/rooms/${r}/entry`, body);
      expect(res.status, JSON.stringify(body)).toBe(status);
      expect(((await res.json()) as { detail: string }).detail).toMatch(pattern);
    }
    expect(await (await fetch(`${url}/api/rooms/${r}/entry`)).json()).toBeNull();
  });
});

describe('room view', () => {
  it('merges checked settings into the view, sends the view event, and sends it after state on connect', async () => {
    const url = await listening();
    const r = room();
    expect(await (await fetch(`${url}/api/rooms/${r}/view`)).json()).toEqual({});
    const stream = await openStream(`${url}/api/rooms/${r}/events`);
    expect(await stream.next((e) => e.event === 'view')).toMatchObject({ data: {} });
    expect(stream.events[0]!.event).toBe('state');

    const camera = { position: [0, 0, 3], target: [0, 0, 0], up: [0, 1, 0] };
    const first = await put(`${url}/api/rooms/${r}/view`, { window: [10, 200], colormap: 'viridis', camera });
    expect(first.status).toBe(200);
    expect(await first.json()).toEqual({ window: [10, 200], colormap: 'viridis', camera });
    const from = stream.events.length;
    const second = await put(`${url}/api/rooms/${r}/view`, { opacity: 0.4, mode: 'volume', colormap: null });
    const view = { window: [10, 200], opacity: 0.4, mode: 'volume', camera };
    expect(await second.json()).toEqual(view);
    expect((await stream.next((e) => e.event === 'view' && (e.data as { mode?: string }).mode === 'volume', from)).data).toEqual({ ...view, by: 'anonymous' });
    expect(await (await fetch(`${url}/api/rooms/${r}/view`)).json()).toEqual(view);

    const late = await openStream(`${url}/api/rooms/${r}/events`);
    expect(await late.next((e) => e.event === 'view')).toMatchObject({ data: view });
    expect(late.events.slice(0, 2).map((e) => e.event)).toEqual(['state', 'view']);
    stream.close();
    late.close();
  });

  it('refuses a bad setting with a 400 naming it, and keeps the view', async () => {
    const url = await listening();
    const r = room();
    await put(`${url}/api/rooms/${r}/view`, { opacity: 1 });
    const cases: [unknown, RegExp][] = [
      [{ window: [5, 1] }, /room view 'window' must have lo < hi/],
      [{ window: [0, 'x'] }, /room view 'window' must be \[lo, hi\]/],
      [{ opacity: 1.5 }, /room view 'opacity' must be a number from 0 to 1/],
      [{ mode: 'wireframe' }, /room view 'mode' must be one of slices, volume, surface, points/],
      [{ camera: { position: [0, 0], target: [0, 0, 0], up: [0, 1, 0] } }, /room view 'camera' needs 'position' as three finite numbers/],
      [{ camera: { position: [0, 0, 1], target: [0, 0, 0], up: [0, 1, 0], fov: 50 } }, /unknown member 'fov'/],
      [{ colormap: 'a b' }, /room view 'colormap'/],
      [{ zoom: 2 }, /room view 'zoom' is not a view setting/],
      [[1], /request body must be a JSON object/],
    ];
    for (const [body, pattern] of cases) {
      const res = await put(`${url}/api/rooms/${r}/view`, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(((await res.json()) as { detail: string }).detail).toMatch(pattern);
    }
    expect(await (await fetch(`${url}/api/rooms/${r}/view`)).json()).toEqual({ opacity: 1 });
  });
});
