/**
 * A GET of `/data` naming a room is a read. Someone who may only read the room gets what they
 * ask for, and the room does not change for anyone else: its entry, its active layer and its log
 * stay as they were. What the room shows they read as it is (the same result); what they computed
 * is read by its id as the room's results are. A writer's GET still moves the room's entry, and
 * the room's active layer with it.
 */
import { describe, expect, it } from 'vitest';
import { addDynamicSpecimen, createTestApp, room } from '../helpers/create-test-app.ts';
import { waitFor } from '../helpers/wait-for.ts';
import type { RoomScene } from '../../core/wire/scene-types.ts';
import { bearer, peopleDir } from './people-helpers.ts';

const people = await peopleDir(['own', 'vi']);

describe('a GET of /data naming a room', () => {
  it('changes nothing of the room for someone who may only read it', async () => {
    const host = await createTestApp({ dataDir: people.dir });
    addDynamicSpecimen(host, 'dense', 'dense_mesh');
    const r = room('reader-data');
    const own = bearer(people.tokens.own!);
    const vi = bearer(people.tokens.vi!);
    const closed = await host.inject({ method: 'PUT', url: `/api/rooms/${r}/access`, headers: own, payload: { viewers: ['vi'], public: 'none' } });
    expect(closed.statusCode, closed.body).toBe(200);
    const data = (who: Record<string, string>, triangles: number) =>
      host.inject({ url: `/api/specimens/dense/data?params=${JSON.stringify({ triangles })}&room_id=${r}`, headers: who });
    const scene = async () => (await host.inject({ url: `/api/rooms/${r}/scene`, headers: own })).json() as RoomScene;
    const shownId = async () => (await scene()).layers[0]?.result?.result_id;
    const entry = async () => (await host.inject({ url: `/api/rooms/${r}/entry`, headers: own })).json() as { params: { triangles: number } } | null;
    const log = async () => (await host.inject({ url: `/api/rooms/${r}/log`, headers: own })).body;

    // The owner shows a surface of 200 triangles: the room's one layer shows it.
    const layers = [{ id: 'mesh', source: { specimen: 'dense', params: { triangles: 200 } } }];
    expect((await host.inject({ method: 'PUT', url: `/api/rooms/${r}/scene`, headers: own, payload: { layers } })).statusCode).toBe(200);
    const shown = await waitFor(shownId, 'the layer to be computed');
    expect((await entry())?.params.triangles).toBe(200);

    // The viewer reads what the room shows: the same result.
    const same = await data(vi, 200);
    expect(same.statusCode, same.body).toBe(200);
    expect(same.headers['x-result-id']).toBe(shown);

    // The viewer asks for something else: answered, and the room is left as it was.
    const before = await scene();
    const other = await data(vi, 300);
    expect(other.statusCode, other.body).toBe(200);
    expect(other.headers['x-result-id']).not.toBe(shown);
    // What the viewer computed is the room's: read by its id by those who may read the room alone.
    const byId = (who: Record<string, string>) => host.inject({ url: `/api/results/${String(other.headers['x-result-id'])}`, headers: who });
    expect((await byId(vi)).statusCode).toBe(200);
    expect((await byId({})).statusCode).toBe(404);
    // The owner's own ask after it: once the room follows it, anything the viewer's ask did to the room would have shown.
    const owners = await data(own, 400);
    expect(owners.statusCode, owners.body).toBe(200);
    await waitFor(async () => ((await shownId()) === owners.headers['x-result-id'] ? true : undefined), 'the layer to follow the owner');
    const after = await scene();
    expect(after.version).toBe(before.version + 1);
    expect(after.layers[0]?.source).toEqual({ specimen: 'dense', params: { triangles: 400 } });
    expect((await entry())?.params.triangles).toBe(400);
    expect(await log()).not.toContain('"triangles":300');
  });
});
