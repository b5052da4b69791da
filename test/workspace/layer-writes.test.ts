/**
 * Layer writes over HTTP: ids `.` and `..` are refused (a client that normalises URLs could
 * never reach such a layer), and adding or changing a layer answers the scene's version after
 * the write as its `ETag`, so the next `If-Match` can name it.
 */
import { describe, expect, it } from 'vitest';
import type { RoomScene } from '../../core/wire/scene-types.ts';
import { createTestApp, room } from '../helpers/create-test-app.ts';
import { waitFor } from '../helpers/wait-for.ts';

const SOURCE = { function: 'square', params: { size: 2 } };

describe('layer writes', () => {
  it('refuse the ids . and .. wherever a layer is named', async () => {
    const host = await createTestApp();
    const r = room();
    for (const id of ['.', '..']) {
      const put = await host.inject({ method: 'PUT', url: `/api/rooms/${r}/scene`, payload: { layers: [{ id, source: SOURCE }] } });
      expect(put.statusCode, id).toBe(400);
      expect(put.json().detail).toMatch(/layers\[0\]\.id must be .*not '\.' or '\.\.'/);
      const post = await host.inject({ method: 'POST', url: `/api/rooms/${r}/layers`, payload: { id, source: SOURCE } });
      expect(post.statusCode, id).toBe(400);
    }
    expect((await host.inject({ method: 'POST', url: `/api/rooms/${r}/layers`, payload: { id: 'a.b', source: SOURCE } })).statusCode).toBe(201);
  });

  it('answer the scene version as ETag, which the next If-Match names', async () => {
    const host = await createTestApp();
    const r = room();
    const added = await host.inject({ method: 'POST', url: `/api/rooms/${r}/layers`, payload: { id: 'm', source: SOURCE } });
    expect(added.statusCode).toBe(201);
    const scene = (await host.inject({ url: `/api/rooms/${r}/scene` })).json() as { version: number };
    expect(added.headers.etag).toMatch(/^"\d+"$/);
    expect(Number(JSON.parse(added.headers.etag as string))).toBeLessThanOrEqual(scene.version);
    // Once the layer's result is in the scene (setting it is a change of its own), no write comes between.
    await waitFor(async () => ((await host.inject({ url: `/api/rooms/${r}/scene` })).json() as RoomScene).layers[0]?.result, 'the layer result');
    const current = (await host.inject({ url: `/api/rooms/${r}/scene` })).headers.etag as string;
    const patched = await host.inject({ method: 'PATCH', url: `/api/rooms/${r}/layers/m`, headers: { 'if-match': current }, payload: { opacity: 0.5 } });
    expect(patched.statusCode).toBe(200);
    const etag = patched.headers.etag as string;
    expect(etag).toBe((await host.inject({ url: `/api/rooms/${r}/scene` })).headers.etag);
    const again = await host.inject({ method: 'PATCH', url: `/api/rooms/${r}/layers/m`, headers: { 'if-match': etag }, payload: { opacity: 0.25 } });
    expect(again.statusCode).toBe(200);
  });
});
