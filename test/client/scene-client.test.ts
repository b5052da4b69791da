/**
 * The client's scene methods against a real host: a room's scene read, replaced (a stale
 * `ifMatch` a 412 that changes nothing), layers added, changed and removed, a snapshot taken
 * and read back, restored, and the room as a Neuroglancer state; `followRoom` yields the
 * `scene` event after `state` and `view`.
 */
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../core/app.ts';
import { createClient, VitrineHttpError, type RoomEvent, type VitrineClient } from '../../core/client/index.ts';
import { fixturePluginsDir } from '../helpers/fixture-plugins.ts';
import { room } from '../helpers/room.ts';
import { makeSpecimensDir } from '../helpers/specimens-dir.ts';
import { waitFor } from '../helpers/wait-for.ts';

let app: FastifyInstance;
let client: VitrineClient;

beforeAll(async () => {
  app = await createApp({ pluginsDir: await fixturePluginsDir(), specimensDir: await makeSpecimensDir(), logLevel: false, poolSize: 2, viewer: false });
  client = createClient({ baseUrl: await app.listen({ host: '127.0.0.1', port: 0 }) });
});
afterAll(() => app?.close());

describe('the client scene methods', () => {
  it('read, replace, add, change, remove, snapshot and restore a room scene', async () => {
    const r = room('client');
    const lab = client.scene(r);
    const events: RoomEvent[] = [];
    const entryOnly: RoomEvent[] = [];
    const abort = new AbortController();
    const following = (async () => {
      for await (const event of client.followRoom(r, { signal: abort.signal, events: 'all' })) events.push(event);
    })().catch(() => {});
    // A follower written before scenes: the room's entry and view, never another layer's computation.
    const followingEntry = (async () => {
      for await (const event of client.followRoom(r, { signal: abort.signal })) entryOnly.push(event);
    })().catch(() => {});
    await waitFor(() => (events.some((e) => e.event === 'scene') ? true : undefined), 'the first scene event');
    expect(events.map((e) => e.event).slice(0, 3)).toEqual(['state', 'view', 'scene']);

    const replaced = await lab.replace([{ id: 'vol', source: { specimen: 'vol' }, colormap: 'ice' }], { ifMatch: 0 });
    expect(replaced).toMatchObject({ version: 1, active: 'vol', layers: [{ id: 'vol', kind: 'image', colormap: 'ice' }] });
    const stale = await lab.replace([], { ifMatch: 0 }).catch((error: unknown) => error);
    expect(stale).toBeInstanceOf(VitrineHttpError);
    expect((stale as VitrineHttpError).status).toBe(412);

    const sq = await lab.add({ source: { function: 'square', params: { size: 2 } }, opacity: 0.5 }, { index: 0 });
    expect(sq).toMatchObject({ id: 'square', kind: 'mesh', opacity: 0.5 });
    expect(await lab.update('square', { opacity: null, visible: false })).toMatchObject({ opacity: 1, visible: false });
    const done = await waitFor(async () => ((await lab.get()).layers.every((l) => l.result) ? lab.get() : undefined), 'both layers computed');
    expect(done.layers.map((l) => l.id)).toEqual(['square', 'vol']);
    expect(lab.layerDataUrl('square', { format: 'glb' })).toBe(`${client.baseUrl}/api/rooms/${r}/layers/square/data?format=glb`);

    const taken = await lab.snapshot();
    const snapshot = await client.getSnapshot(taken.id);
    // The id and the time taken come from the answer's headers, beside the document.
    expect(snapshot.id).toBe(taken.id);
    expect(Math.abs(snapshot.created - Date.now())).toBeLessThan(60_000);
    expect(snapshot.scene.layers.map((l) => l.result?.blob_id)).toEqual(done.layers.map((l) => l.result?.blob_id));
    await lab.remove('square');
    expect((await lab.get()).layers.map((l) => l.id)).toEqual(['vol']);
    expect((await lab.restore(taken.id)).layers.map((l) => l.id)).toEqual(['square', 'vol']);
    // Both layers are in Neuroglancer's state once computed again: the volume by its store, the mesh as a single mesh.
    const types = async () => {
      const layers = (await lab.neuroglancer()).layers as { type: string; name: string }[];
      return layers.length === 2 ? layers.map((l) => [l.type, l.name]) : undefined;
    };
    expect(await waitFor(types, 'both restored layers in the Neuroglancer state')).toEqual([['mesh', 'square'], ['image', 'vol']]);
    await waitFor(
      () => (events.some((e) => e.event === 'scene' && e.data.layers.length === 2 && e.data.version > done.version) ? true : undefined),
      'the restored scene event',
    );
    expect(events.some((e) => e.event === 'result' && (e.data as { layer?: string }).layer === 'square')).toBe(true);
    expect(entryOnly.map((e) => e.event)).not.toContain('scene');
    // An entry follower gets the active layer's computations (the entry's, naming it), never another layer's.
    expect(entryOnly.filter((e) => ![undefined, 'vol'].includes((e.data as { layer?: string } | null)?.layer))).toEqual([]);
    expect(entryOnly.some((e) => e.event === 'result' && (e.data as { layer?: string }).layer === 'vol')).toBe(true);
    expect(entryOnly.some((e) => e.event === 'result' && (e.data as { function_name: string | null }).function_name === null)).toBe(true);
    abort.abort();
    await Promise.all([following, followingEntry]);
  });
});
