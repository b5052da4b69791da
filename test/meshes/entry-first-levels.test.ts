/**
 * The room's entry and the active layer's own run both set the layer's result. Whichever comes
 * first, the layer ends up with everything its own run knows of it: `levels` for a surface over
 * the level bound, and the provenance of what computed it. Here the entry lands first, awaited
 * (a `/data` naming the room, with other parameters than the layer's), so the layer follows the
 * entry without a run of its own.
 */
import { describe, expect, it } from 'vitest';
import { addDynamicSpecimen, createTestApp, room } from '../helpers/create-test-app.ts';
import { waitFor } from '../helpers/wait-for.ts';
import type { LayerResult, RoomScene } from '../../core/wire/scene-types.ts';

describe('an active layer that follows the room entry', () => {
  it('has the levels and provenance its own run would have set', async () => {
    const host = await createTestApp({ meshLodTriangles: 20000 });
    addDynamicSpecimen(host, 'dense', 'dense_mesh');
    const id = room('entry-first');
    const shown = async (): Promise<LayerResult | undefined> =>
      ((await host.inject({ url: `/api/rooms/${id}/scene` })).json() as RoomScene).layers[0]?.result ?? undefined;

    // A small surface (no levels) is computed by the layer's own run.
    const layers = [{ id: 'mesh', source: { specimen: 'dense', params: { triangles: 200 } } }];
    expect((await host.inject({ method: 'PUT', url: `/api/rooms/${id}/scene`, payload: { layers } })).statusCode).toBe(200);
    const small = await waitFor(shown, 'the small surface');
    expect(small.levels).toBeUndefined();
    expect(small.provenance).toMatchObject({ function: 'dense_mesh', params: { triangles: 200 } });

    // The entry comes first: a large surface computed into the room; the layer follows it.
    const answer = await host.inject({ url: `/api/specimens/dense/data?params=${JSON.stringify({ triangles: 40000 })}&room_id=${id}` });
    expect(answer.statusCode, answer.body).toBe(200);
    const large = String(answer.headers['x-result-id']);
    const followed = await waitFor(async () => {
      const result = await shown();
      return result?.result_id === large ? result : undefined;
    }, 'the layer to show the entry');
    expect(followed.levels).toBe(true);
    expect(followed.provenance).toMatchObject({ function: 'dense_mesh', params: { triangles: 40000 } });
  });
});
