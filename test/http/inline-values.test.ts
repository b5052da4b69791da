/**
 * A function registered in code runs with values of its own: one that changes an array
 * parameter in place works the same through GET /data (whose values are shared and frozen),
 * POST /data and /invoke, and what it changed reaches neither the room's entry nor the next
 * request with the same parameters.
 */
import { describe, expect, it } from 'vitest';
import { createTestApp, room } from '../helpers/create-test-app.ts';

/** Sorts its `sizes` in place and answers a mesh of one triangle per size; records what it was given. */
function sortingSpecimen(seen: number[][]) {
  return (sizes: number[]) => {
    seen.push([...sizes]);
    sizes.sort((a, b) => a - b);
    sizes.push(0);
    const vertices = new Float32Array(9 * (sizes.length - 1));
    const indices = Uint32Array.from(vertices.keys()).subarray(0, vertices.length / 3);
    return { vertices, indices };
  };
}

const SCHEMA = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  type: 'object',
  properties: { sizes: { type: 'array', items: { type: 'integer' }, default: [3, 1, 2] } },
};

describe('values of a function registered in code', () => {
  it('are its own to change, on GET as on POST and /invoke', async () => {
    const app = await createTestApp({ pluginsDir: null });
    const seen: number[][] = [];
    app.vitrine.registerSpecimen({ id: 'sorter', schema: SCHEMA, parameters: [{ name: 'sizes', kind: 'value' }] }, sortingSpecimen(seen));
    const params = JSON.stringify({ sizes: [5, 4, 6] });
    const entryOf = async (roomId: string) =>
      (await app.inject({ method: 'GET', url: `/api/rooms/${roomId}/entry` })).json() as { params: { sizes: number[] } };

    const [getRoom, againRoom, postRoom, invokeRoom] = [room(), room(), room(), room()];
    const got = await app.inject({ method: 'GET', url: `/api/specimens/sorter/data?params=${encodeURIComponent(params)}&room_id=${getRoom}` });
    expect(got.statusCode).toBe(200);
    // The same text in another room: the shared values were not changed by the first run.
    const again = await app.inject({ method: 'GET', url: `/api/specimens/sorter/data?params=${encodeURIComponent(params)}&room_id=${againRoom}` });
    expect(again.statusCode).toBe(200);
    const posted = await app.inject({ method: 'POST', url: '/api/specimens/sorter/data', payload: { params: { sizes: [5, 4, 6] }, room_id: postRoom } });
    expect(posted.statusCode).toBe(200);
    const invoked = await app.inject({
      method: 'POST',
      url: '/api/processing/invoke',
      payload: { function_name: 'sorter', kwargs: { sizes: [5, 4, 6] }, room_id: invokeRoom },
    });
    expect(invoked.statusCode).toBe(200);

    expect(seen).toEqual([[5, 4, 6], [5, 4, 6], [5, 4, 6], [5, 4, 6]]);
    expect(got.rawPayload).toEqual(posted.rawPayload);
    expect(got.headers['x-result-id']).toBe(posted.headers['x-result-id']);
    for (const roomId of [getRoom, againRoom, postRoom, invokeRoom]) expect((await entryOf(roomId)).params.sizes).toEqual([5, 4, 6]);
    // The default is the schema's, untouched by the runs.
    expect(SCHEMA.properties.sizes.default).toEqual([3, 1, 2]);
  });
});
