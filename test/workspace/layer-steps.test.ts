/**
 * A layer's `t` and `channels` against the result it shows, over real HTTP on one host: once
 * the result is known, a step past its last one or more channel entries than it has channels
 * is a 400 naming `layer.t` or `layer.channels` (with the counts in the detail), by PATCH and
 * by PUT of the scene, and a result without time (a mesh) has only step 0. Given before the
 * result is known (a new layer, a new source), they are taken and fitted once it is: `t`
 * brought down to the last step, the extra channel entries dropped.
 */
import { describe, expect, it } from 'vitest';
import type { RoomScene, SceneLayer } from '../../core/wire/scene-types.ts';
import { fileTestApp } from '../helpers/create-test-app.ts';
import { room } from '../helpers/room.ts';
import { waitFor } from '../helpers/wait-for.ts';

const server = fileTestApp();
const JSON_TYPE = { 'content-type': 'application/json' };
const send = (method: string, path: string, body?: unknown) =>
  fetch(`${server.url}${path}`, { method, headers: JSON_TYPE, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
const scene = async (r: string): Promise<RoomScene> => (await (await fetch(`${server.url}/api/rooms/${r}/scene`)).json()) as RoomScene;
const layerOf = (s: RoomScene, id: string): SceneLayer | undefined => s.layers.find((l) => l.id === id);
const withResult = (r: string, id: string, resultId?: string) =>
  waitFor(async () => {
    const layer = layerOf(await scene(r), id);
    return layer?.result && layer.result.result_id !== resultId ? layer : undefined;
  }, `layer ${id} of ${r} to have a (new) result`);
const refusal = async (answer: Response): Promise<string> => {
  expect(answer.status).toBe(400);
  return ((await answer.json()) as { detail: string }).detail;
};

/** `indexed_steps` answers 3 time steps of 2 channels by default. */
const CELLS = { function: 'indexed_steps' };

describe("a layer's step and channels", () => {
  it('are refused past what the known result has, naming the field and the counts', async () => {
    const r = room('steps');
    await send('POST', `/api/rooms/${r}/layers`, { id: 'cells', source: CELLS });
    await send('POST', `/api/rooms/${r}/layers`, { id: 'sq', source: { function: 'square' } });
    await withResult(r, 'cells');
    await withResult(r, 'sq');

    expect((await send('PATCH', `/api/rooms/${r}/layers/cells`, { t: 2, channels: [{ visible: true }, { color: '#00ff00' }] })).status).toBe(200);
    const cases: [unknown, RegExp][] = [
      [{ t: 3 }, /^layer\.t must be a step of the layer's result, which has 3 time steps \(t from 0 to 2\), got 3$/],
      [{ t: 99, opacity: 0.5 }, /^layer\.t must be a step of the layer's result, which has 3 time steps \(t from 0 to 2\), got 99$/],
      [{ channels: Array.from({ length: 5 }, () => ({ visible: true })) }, /^layer\.channels lists 5 channels, but the layer's result has 2 channels$/],
    ];
    for (const [body, pattern] of cases) {
      expect(await refusal(await send('PATCH', `/api/rooms/${r}/layers/cells`, body)), JSON.stringify(body)).toMatch(pattern);
    }
    // Nothing of a refused change was stored.
    expect(layerOf(await scene(r), 'cells')).toMatchObject({ t: 2, opacity: 1, channels: [{ visible: true }, { color: '#00ff00' }] });

    // A mesh has no time axis and one channel.
    expect(await refusal(await send('PATCH', `/api/rooms/${r}/layers/sq`, { t: 1 }))).toMatch(/^layer\.t .*which has no time axis \(t=0 only\), got 1$/);
    expect((await send('PATCH', `/api/rooms/${r}/layers/sq`, { t: 0 })).status).toBe(200);

    // PUT of the scene checks a layer that keeps its result the same way.
    const now = await scene(r);
    const layers = now.layers.map((layer) => (layer.id === 'cells' ? { ...layer, t: 7 } : layer));
    const put = await send('PUT', `/api/rooms/${r}/scene`, { layers });
    expect(await refusal(put)).toMatch(/^layers\[0\]\.t must be a step of the layer's result, which has 3 time steps/);
    expect((await scene(r)).version).toBe(now.version);
  });

  it('are taken before the result is known, and fitted to it once it is', async () => {
    const r = room('steps');
    const many = Array.from({ length: 5 }, (_, i) => ({ color: `#00000${i}` }));
    const added = await send('POST', `/api/rooms/${r}/layers`, { id: 'cells', source: CELLS, t: 99, channels: many });
    expect(added.status).toBe(201);
    expect(await added.json()).toMatchObject({ t: 99 });
    const fitted = await withResult(r, 'cells');
    expect(fitted).toMatchObject({ t: 2, channels: many.slice(0, 2) });

    // A new source and a step it may have: taken, then fitted to the new result (5 steps, 1 channel).
    const patched = await send('PATCH', `/api/rooms/${r}/layers/cells`, { source: { ...CELLS, params: { steps: 5, axes: 'tzyx' } }, t: 40 });
    expect(patched.status).toBe(200);
    const refitted = await withResult(r, 'cells', fitted.result!.result_id);
    expect(refitted).toMatchObject({ t: 4, channels: many.slice(0, 1) });
  });
});
