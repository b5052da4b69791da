/**
 * A layer whose plugin changed under it: after a reload brings a version that refuses the
 * layer's parameters, the layer keeps showing its last result marked `stale` with why; its
 * data, the room's provenance, its picture and a snapshot all agree; pinning the old version
 * or giving parameters the new one takes ends it.
 */
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../core/app.ts';
import { readPngText } from '../../core/formats/png/png-text.ts';
import type { RoomProvenance } from '../../core/wire/provenance-types.ts';
import type { RoomScene, SceneLayer } from '../../core/wire/scene-types.ts';
import { dropIn, pluginsFolder, shapesVersion } from '../helpers/versioned-plugin.ts';
import { waitFor } from '../helpers/wait-for.ts';

let app: FastifyInstance;
let url: string;
let plugins: string;

const send = (method: string, p: string, body?: unknown) =>
  fetch(`${url}${p}`, { method, headers: { 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) });
const sceneOf = async (room: string) => (await (await send('GET', `/api/rooms/${room}/scene`)).json()) as RoomScene;
const layerOf = async (room: string, id: string): Promise<SceneLayer | undefined> => (await sceneOf(room)).layers.find((l) => l.id === id);

beforeAll(async () => {
  plugins = await pluginsFolder();
  const [first] = await Promise.all([shapesVersion('1.0.0'), shapesVersion('2.0.0', '1.5', 'mode-renamed')]);
  await dropIn(first, plugins);
  app = await createApp({ pluginsDir: plugins, specimensDir: null, logLevel: false, poolSize: 1, viewer: false });
  url = await app.listen({ host: '127.0.0.1', port: 0 });
}, 240_000);
afterAll(() => app?.close());

describe('a layer whose plugin changed under it', { timeout: 120_000 }, () => {
  it('shows its last result marked stale everywhere, until a version or parameters that fit are given', async () => {
    const room = 'stale';
    const source = { function: 'ring', params: { mode: 'fast', segments: 8 } };
    expect((await send('POST', `/api/rooms/${room}/layers`, { id: 'fast', source })).status).toBe(201);
    const first = await waitFor(async () => (await layerOf(room, 'fast'))?.result, 'the first result');
    expect(first.provenance).toMatchObject({ version: '1.0.0' });

    await dropIn(await shapesVersion('2.0.0', '1.5', 'mode-renamed'), plugins);
    expect((await send('GET', '/api/specimens/reload')).status).toBe(200);
    const stale = await waitFor(async () => {
      const layer = await layerOf(room, 'fast');
      return layer?.stale ? layer : undefined;
    }, 'the layer marked stale');
    expect(stale.result).toEqual(first);
    expect(stale.stale!.code).toMatch(/^SPC_ERR_/);
    expect(stale.stale!.detail).toContain('mode');

    // Its data is the result it shows; the provenance list, the picture and a snapshot say it is stale.
    const data = await send('GET', `/api/rooms/${room}/layers/fast/data`);
    expect(data.status).toBe(200);
    expect(data.headers.get('x-result-id')).toBe(first.result_id);
    const provenance = (await (await send('GET', `/api/rooms/${room}/provenance`)).json()) as RoomProvenance;
    expect(provenance.layers[0]).toMatchObject({ id: 'fast', provenance: { version: '1.0.0' }, stale: stale.stale });
    const picture = await send('GET', `/api/rooms/${room}/image?w=32&h=32`);
    expect(picture.status).toBe(200);
    expect(readPngText(new Uint8Array(await picture.arrayBuffer())).Comment).toContain(`(stale: ${stale.stale!.detail})`);
    const snapshot = await send('POST', `/api/rooms/${room}/snapshots`, {});
    expect(snapshot.status, await snapshot.clone().text()).toBe(201);
    const { id } = (await snapshot.json()) as { id: string };
    const recorded = (await (await send('GET', `/api/snapshots/${id}`)).json()) as { scene: RoomScene };
    expect(recorded.scene.layers[0]).toMatchObject({ id: 'fast', stale: stale.stale, result: { result_id: first.result_id } });

    // The scene read and put back as it is keeps the layer as it was (stale is the host's to set).
    const scene = await sceneOf(room);
    expect((await send('PUT', `/api/rooms/${room}/scene`, { layers: scene.layers })).status).toBe(200);
    expect((await layerOf(room, 'fast'))?.stale).toEqual(stale.stale);

    // Kept on the old version: computed by it again, the same result, no longer stale.
    expect((await send('PATCH', `/api/rooms/${room}/layers/fast`, { source: { ...source, version: '1.0.0' } })).status).toBe(200);
    const pinned = await waitFor(async () => {
      const layer = await layerOf(room, 'fast');
      return layer?.result && !layer.stale ? layer : undefined;
    }, 'the pinned layer computed');
    expect(pinned.result!.result_id).toBe(first.result_id);

    // Or the new version with parameters it takes.
    expect((await send('PATCH', `/api/rooms/${room}/layers/fast`, { source: { function: 'ring', params: { mode: 'quick', segments: 8 } } })).status).toBe(200);
    const moved = await waitFor(async () => {
      const layer = await layerOf(room, 'fast');
      return layer?.result && !layer.stale ? layer : undefined;
    }, 'the layer computed by the new version');
    expect(moved.result!.provenance).toMatchObject({ version: '2.0.0' });
  });
});
