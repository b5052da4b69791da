/**
 * The client's edits of a labels layer against a real host: an edit answers what it changed,
 * a stale `ifVersion` is a 412 that changes nothing, an undo blocked by a later edit is a 409
 * naming it, the list shows who made each and which are undone, `labels(version)` reads any
 * version, and a follower of the room gets each edit's `labels` event.
 */
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../core/app.ts';
import { createClient, type VitrineClient } from '../../core/client/index.ts';
import { VitrineHttpError } from '../../core/client/errors.ts';
import type { LayerEdits } from '../../core/client/layer-edits.ts';
import type { VolumeData } from '../../core/wire/decoded-types.ts';
import type { LabelsEvent } from '../../core/wire/edit-types.ts';
import { room } from '../helpers/create-test-app.ts';
import { fixturePluginsDir } from '../helpers/fixture-plugins.ts';
import { makeSpecimensDir } from '../helpers/specimens-dir.ts';

const SIZE = 24;
const BLOBS = { function: 'label_blobs', params: { size: SIZE, count: 4, dtype: 'uint16', stride: 100 } };

/** The voxel index of [z, y, x] in C order. */
const at = (z: number, y: number, x: number): number => (z * SIZE + y) * SIZE + x;

describe('client edits of a labels layer', () => {
  let app: FastifyInstance;
  let client: VitrineClient;
  let seg: LayerEdits;
  let r: string;

  beforeAll(async () => {
    app = await createApp({ pluginsDir: await fixturePluginsDir(), specimensDir: await makeSpecimensDir(), logLevel: false, poolSize: 2, viewer: false });
    client = createClient({ baseUrl: await app.listen({ host: '127.0.0.1', port: 0 }) });
    r = room();
    await client.scene(r).add({ id: 'seg', source: BLOBS, kind: 'labels' });
    seg = client.edits(r, 'seg');
  });
  afterAll(() => app.close());

  it('paints, refuses a stale version, undoes, and lists who made each', async () => {
    const base = (await seg.labels()).data as VolumeData;
    expect((await seg.labels()).version).toBe(0);
    const controller = new AbortController();
    const events: LabelsEvent[] = [];
    let connected: () => void = () => {};
    const open = new Promise<void>((resolve) => (connected = resolve));
    const following = (async () => {
      for await (const event of client.followRoom(r, { signal: controller.signal, events: 'all' })) {
        connected();
        if (event.event === 'labels') events.push(event.data);
        if (events.length === 2) return;
      }
    })();
    await open;

    const painted = await seg.edit({ op: 'paint', label: 7, center: [2, 2, 2], radius: 1 }, { ifVersion: 0 });
    expect(painted).toMatchObject({ version: 1, voxels: expect.any(Number) as number, box: { from: [1, 1, 1], to: [4, 4, 4] } });
    const stale = await seg.edit({ op: 'paint', label: 9, center: [5, 5, 5], radius: 0 }, { ifVersion: 0 }).catch((e: unknown) => e);
    expect(stale).toBeInstanceOf(VitrineHttpError);
    expect((stale as VitrineHttpError).status).toBe(412);
    const one = (await seg.labels(1)).data as VolumeData;
    expect(one.data[at(2, 2, 2)]).toBe(7);
    expect(one.data[at(5, 5, 5)]).toBe(base.data[at(5, 5, 5)]);

    const undone = await seg.undo(painted.seq);
    expect(undone.version).toBe(2);
    expect(Array.from(((await seg.labels()).data as VolumeData).data)).toEqual(Array.from(base.data));
    const edits = await seg.all();
    expect(edits.map((e) => [e.seq, e.by, e.undone_by])).toEqual([
      [painted.seq, 'anonymous', undone.seq],
      [undone.seq, 'anonymous', undefined],
    ]);
    await following;
    controller.abort();
    expect(events.map((e) => [e.layer, e.seq, e.version])).toEqual([
      ['seg', painted.seq, 1],
      ['seg', undone.seq, 2],
    ]);
    expect(events[0]!.box).toEqual(painted.box);
  }, 30_000);

  it('is refused an undo while a later edit changed the same voxels, naming it', async () => {
    const first = await seg.edit({ op: 'paint', label: 11, center: [10, 10, 10], radius: 2 });
    const later = await seg.edit({ op: 'paint', label: 12, center: [10, 10, 10], radius: 1 });
    const refused = await seg.undo(first.seq).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(VitrineHttpError);
    expect([(refused as VitrineHttpError).status, (refused as VitrineHttpError).code]).toEqual([409, 'SPC_ERR_EDIT_CONFLICT']);
    expect((refused as VitrineHttpError).detail).toContain(String(later.seq));
    await seg.undo(later.seq);
    const undone = await seg.undo(first.seq);
    const redone = await seg.redo(first.seq);
    expect(redone.version).toBe(undone.version + 1);
    expect(((await seg.labels()).data as VolumeData).data[at(10, 10, 10)]).toBe(11);
  });
});
