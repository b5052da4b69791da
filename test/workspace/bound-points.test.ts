/**
 * Marks as inputs over real HTTP: a scene layer whose source binds a list-of-points parameter
 * to the room's points labelled `seed` is computed with them when added, and again when the
 * marks change (a point added, moved, removed; marks with other labels ignored): followers get
 * the `result` event (of the room's entry: the layer is the scene's active one), and the
 * layer's data holds the seeds as they are after a burst of changes. Points reach a bound layer
 * in its own frame, and a new affine of that layer, or of the layer they were marked on,
 * computes it again when its points move (and not when they stay).
 */
import { describe, expect, it } from 'vitest';
import { fileTestApp } from '../helpers/create-test-app.ts';
import { room } from '../helpers/room.ts';
import { openStream } from '../helpers/sse-reader.ts';
import { waitFor } from '../helpers/wait-for.ts';

const server = fileTestApp({ specimensDir: null, poolSize: 1 }, 180_000);

const send = (method: string, path: string, body?: unknown) =>
  fetch(`${server.url}${path}`, {
    method,
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });

/** The points of the layer's data, as [x, y, z] triples. */
async function layerPoints(r: string, layer = 'seeds'): Promise<number[][]> {
  const data = (await (await fetch(`${server.url}/api/rooms/${r}/layers/${layer}/data`)).json()) as { points: number[] };
  return Array.from({ length: data.points.length / 3 }, (_, i) => data.points.slice(i * 3, i * 3 + 3));
}

describe('annotations in snapshots', () => {
  it('a snapshot records the room’s marks, and restoring it brings them back', async () => {
    const r = room('snap');
    await send('POST', `/api/rooms/${r}/layers`, { id: 'seeds', source: { function: 'marked', bind: { points: { label: 'seed' } } } });
    await send('POST', `/api/rooms/${r}/annotations`, [
      { kind: 'point', points: [[1, 2, 3]], label: 'seed' },
      {
        kind: 'line',
        points: [
          [0, 0, 0],
          [0, 0, 2],
        ],
      },
    ]);
    const kept = (await (await fetch(`${server.url}/api/rooms/${r}/annotations`)).json()) as { annotations: unknown[] };
    const taken = (await (await send('POST', `/api/rooms/${r}/snapshots`)).json()) as { id: string };
    expect(((await (await fetch(`${server.url}/api/snapshots/${taken.id}`)).json()) as { annotations: unknown[] }).annotations).toEqual(kept.annotations);
    await send('DELETE', `/api/rooms/${r}/annotations/1`);
    await send('POST', `/api/rooms/${r}/annotations`, { kind: 'point', points: [[7, 7, 7]] });
    expect((await send('PUT', `/api/rooms/${r}/scene`, { snapshot: taken.id })).status).toBe(200);
    const restored = (await (await fetch(`${server.url}/api/rooms/${r}/annotations`)).json()) as { version: number; annotations: unknown[] };
    expect(restored.annotations).toEqual(kept.annotations);
    // Ids go on past every id the room ever made.
    expect(((await (await send('POST', `/api/rooms/${r}/annotations`, { kind: 'point', points: [[0, 0, 0]] })).json()) as { id: string }).id).toBe('4');
  });
});

describe('a layer bound to the room’s points', () => {
  it('is computed with the seeds, and again as they change, each result an event naming the layer', async () => {
    const r = room('bound');
    const stream = await openStream(`${server.url}/api/rooms/${r}/events`);
    try {
      const added = await send('POST', `/api/rooms/${r}/layers`, { id: 'seeds', source: { function: 'marked', bind: { points: { label: 'seed' } } } });
      expect(added.status).toBe(201);
      // The scene's only layer is its active one: its result is the room's entry (no `layer` member).
      await stream.next((e) => e.event === 'result');
      expect(await layerPoints(r)).toEqual([[0, 0, 0]]);

      const from = stream.events.length;
      await send('POST', `/api/rooms/${r}/annotations`, [
        { kind: 'point', points: [[1, 2, 3]], label: 'seed' },
        { kind: 'point', points: [[9, 9, 9]], label: 'other' },
        { kind: 'point', points: [[4, 5, 6]], label: 'seed' },
      ]);
      expect((await stream.next((e) => e.event === 'result', from)).data).toMatchObject({
        function_name: 'marked',
        params: {
          points: [
            [1, 2, 3],
            [4, 5, 6],
          ],
        },
      });
      await waitFor(
        async () =>
          JSON.stringify(await layerPoints(r)) ===
          JSON.stringify([
            [1, 2, 3],
            [4, 5, 6],
          ])
            ? true
            : undefined,
        'the layer to hold the two seeds',
      );

      // A burst: each change of the marks is followed by the layer, and the last state wins.
      for (let i = 0; i < 10; i++) await send('PATCH', `/api/rooms/${r}/annotations/1`, { points: [[i, i, i]] });
      await send('DELETE', `/api/rooms/${r}/annotations/3`);
      await waitFor(
        async () => (JSON.stringify(await layerPoints(r)) === JSON.stringify([[9, 9, 9]]) ? true : undefined),
        'the layer to hold the moved seed alone',
      );
      // The layer still binds: its source was not rewritten with the points of one computation.
      const scene = (await (await fetch(`${server.url}/api/rooms/${r}/scene`)).json()) as { layers: { source: unknown; result?: { result_id: string } }[] };
      expect(scene.layers[0]!.source).toEqual({ function: 'marked', params: {}, bind: { points: { label: 'seed' } } });
      await waitFor(async () => {
        const data = await fetch(`${server.url}/api/rooms/${r}/layers/seeds/data`);
        await data.arrayBuffer();
        const now = (await (await fetch(`${server.url}/api/rooms/${r}/scene`)).json()) as typeof scene;
        return now.layers[0]!.result?.result_id === data.headers.get('x-result-id') ? true : undefined;
      }, "the layer's result to be the one of the seeds as they are");
    } finally {
      stream.close();
    }
  });
});

describe('points bound into a moved layer', () => {
  it("reach the plugin in the layer's own frame, whichever frame each was marked in", async () => {
    const r = room('frame');
    // The bound layer is scaled by 2 and moved 10 along x: room = 2 * layer + (10, 0, 0).
    const scaled = [2, 0, 0, 10, 0, 2, 0, 0, 0, 0, 2, 0, 0, 0, 0, 1];
    // Another layer is moved 1 along x: room = other + (1, 0, 0).
    const moved = [1, 0, 0, 1, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1];
    expect((await send('POST', `/api/rooms/${r}/layers`, { id: 'other', source: { function: 'marked' }, affine: moved })).status).toBe(201);
    const bound = { id: 'seeds', source: { function: 'marked', bind: { points: {} } }, affine: scaled };
    expect((await send('POST', `/api/rooms/${r}/layers`, bound)).status).toBe(201);
    await send('POST', `/api/rooms/${r}/annotations`, [
      { kind: 'point', points: [[12, 4, 6]] },
      { kind: 'point', points: [[5, 5, 5]], layer: 'seeds' },
      { kind: 'point', points: [[0, 0, 0]], layer: 'other' },
    ]);
    const wanted = [
      [1, 2, 3],
      [5, 5, 5],
      [-4.5, 0, 0],
    ];
    await waitFor(async () => (JSON.stringify(await layerPoints(r)) === JSON.stringify(wanted) ? true : undefined), 'the seeds in the layer frame');
  });
});

describe('a bound layer whose frame, or its points’ frame, moves', () => {
  it('is computed again when the points it takes move, and not when they stay', async () => {
    const r = room('reframe');
    const identity = [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1];
    const shift = (x: number) => [1, 0, 0, x, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1];
    const stream = await openStream(`${server.url}/api/rooms/${r}/events`);
    try {
      // room = 2 * moved + (10, 0, 0); room = seg + (5, 0, 0).
      await send('POST', `/api/rooms/${r}/layers`, { id: 'moved', source: { function: 'marked' }, affine: [2, 0, 0, 10, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1] });
      await send('POST', `/api/rooms/${r}/layers`, { id: 'plain', source: { function: 'marked' } });
      await send('POST', `/api/rooms/${r}/layers`, { id: 'seg', source: { function: 'marked', bind: { points: { label: 's' } } }, affine: shift(5) });
      await send('POST', `/api/rooms/${r}/annotations`, [
        { kind: 'point', points: [[1, 0, 0]], layer: 'moved', label: 's' },
        { kind: 'point', points: [[3, 3, 3]], layer: 'plain', label: 'other' },
      ]);
      await waitFor(async () => (JSON.stringify(await layerPoints(r, 'seg')) === '[[7,0,0]]' ? true : undefined), 'the seed in seg’s frame');
      // seg's event `name` about a computation with `points` (under load, one the marks started may still end after `from`).
      const seg = (name: string, points: unknown, from: number) =>
        stream.next(
          (e) =>
            e.event === name &&
            (e.data as { layer?: string }).layer === 'seg' &&
            JSON.stringify((e.data as { params?: { points?: unknown } }).params?.points) === JSON.stringify(points),
          from,
        );
      // seg's result names the seed (another computation the marks started may still be under way).
      await seg('result', [[7, 0, 0]], 0);
      // (Changes that move nothing seg takes, and compute nothing: test/unit/moved-points.test.ts.)

      // The layer its seed was marked on moves: the seed is now at (1 - 5, 0, 0) in seg's frame.
      let from = stream.events.length;
      expect((await send('PATCH', `/api/rooms/${r}/layers/moved`, { affine: identity })).status).toBe(200);
      const computing = await seg('computing', [[-4, 0, 0]], from);
      const result = await seg('result', [[-4, 0, 0]], from);
      expect(stream.events.indexOf(computing)).toBeLessThan(stream.events.indexOf(result));
      expect(result.data).toMatchObject({ params: { points: [[-4, 0, 0]] } });
      expect(await layerPoints(r, 'seg')).toEqual([[-4, 0, 0]]);

      // seg itself moves back onto the room's frame: the seed is (1, 0, 0) there.
      from = stream.events.length;
      expect((await send('PATCH', `/api/rooms/${r}/layers/seg`, { affine: null })).status).toBe(200);
      expect((await seg('result', [[1, 0, 0]], from)).data).toMatchObject({ params: { points: [[1, 0, 0]] } });
      expect(await layerPoints(r, 'seg')).toEqual([[1, 0, 0]]);
    } finally {
      stream.close();
    }
  });
});
