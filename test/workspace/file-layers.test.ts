/**
 * A static specimen whose file no parser reads (a `.xyz` point cloud, which the viewer draws
 * itself) as a layer, over real HTTP on one host: added by `POST .../layers`, by `PUT .../entry`
 * and by putting back the scene just read; its result is its type and the specimen's `/data`,
 * with no result id or blob (the host has none for it), and both data URLs send the file as it
 * is. A snapshot of such a room refers to the file and restores. A file of a type no layer
 * shows is refused, naming the source.
 */
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { RoomScene, SceneLayer, SnapshotCreated } from '../../core/wire/scene-types.ts';
import type { SnapshotDocument } from '../../core/wire/snapshot-types.ts';
import { fileTestApp } from '../helpers/create-test-app.ts';
import { room } from '../helpers/room.ts';
import { openStream } from '../helpers/sse-reader.ts';
import { waitFor } from '../helpers/wait-for.ts';

const XYZ = '0 0 0 255 0 0\n1 0 0 0 255 0\n0 1 0 0 0 255\n';

/** A specimens directory of a `.xyz` cloud and a text file of a type no layer shows. */
function specimensDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'vitrine-file-layers-'));
  const folder = (name: string, files: Record<string, string>) => {
    mkdirSync(join(dir, name));
    for (const [file, text] of Object.entries(files)) writeFileSync(join(dir, name, file), text);
  };
  folder('cloud', { 'specimen.json': JSON.stringify({ display_name: 'Cloud', type: 'point_cloud', data_file: 'cloud.xyz' }), 'cloud.xyz': XYZ });
  folder('notes', { 'specimen.json': JSON.stringify({ display_name: 'Notes', type: 'document', data_file: 'notes.txt' }), 'notes.txt': 'hello' });
  return dir;
}

const server = fileTestApp({ specimensDir: specimensDir() });
const JSON_TYPE = { 'content-type': 'application/json' };
const send = (method: string, path: string, body?: unknown) =>
  fetch(`${server.url}${path}`, { method, headers: JSON_TYPE, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
const scene = async (r: string): Promise<RoomScene> => (await (await fetch(`${server.url}/api/rooms/${r}/scene`)).json()) as RoomScene;
const layerOf = (s: RoomScene, id: string): SceneLayer | undefined => s.layers.find((l) => l.id === id);
const allShown = (r: string) => waitFor(async () => ((await scene(r)).layers.every((l) => l.result) ? scene(r) : undefined), `every layer of ${r} shown`);
const FILE_RESULT = { type: 'point_cloud', data_url: '/api/specimens/cloud/data' };

describe('a static file no parser reads, as a layer', () => {
  it('is added with the kind of its type, shows the file as it is, and goes back in with the scene read', async () => {
    const r = room('file-layer');
    const added = await send('POST', `/api/rooms/${r}/layers`, { id: 'g', source: { specimen: 'cloud' } });
    expect(added.status).toBe(201);
    expect(await added.json()).toMatchObject({ id: 'g', kind: 'points', source: { specimen: 'cloud' } });
    await send('POST', `/api/rooms/${r}/layers`, { id: 'ramp', source: { function: 'ramp' } });
    const shown = await allShown(r);
    // The host holds no result of the file: no id, no blob, only where the file is read.
    expect(layerOf(shown, 'g')!.result).toEqual(FILE_RESULT);
    for (const url of [FILE_RESULT.data_url, `/api/rooms/${r}/layers/g/data`]) {
      const data = await fetch(`${server.url}${url}`);
      expect(data.status, url).toBe(200);
      expect(await data.text()).toBe(XYZ);
    }
    // The active layer is the room's entry, as PUT /entry would make it.
    expect(await (await fetch(`${server.url}/api/rooms/${r}/entry`)).json()).toMatchObject({ function_name: null, specimen_id: 'cloud', type: 'point_cloud' });

    const again = await send('PUT', `/api/rooms/${r}/scene`, { layers: shown.layers, active: shown.active });
    expect(again.status).toBe(200);
    expect(layerOf((await again.json()) as RoomScene, 'g')!.result).toEqual(FILE_RESULT);
  });

  it('is the layer PUT /entry makes, shown without a failure', async () => {
    const r = room('file-entry');
    const stream = await openStream(`${server.url}/api/rooms/${r}/events`);
    try {
      const put = await send('PUT', `/api/rooms/${r}/entry`, { specimen: 'cloud' });
      expect(put.status).toBe(200);
      // Shown, or failed (which ends the wait at once).
      const one = await waitFor(async () => {
        const now = await scene(r);
        return now.layers[0]?.result || stream.events.some((e) => e.event === 'failed') ? now : undefined;
      }, 'the entry layer shown or failed');
      expect(one.layers).toHaveLength(1);
      expect(one.layers[0]).toMatchObject({ kind: 'points', source: { specimen: 'cloud' }, result: FILE_RESULT });
      expect(stream.events.filter((e) => e.event === 'failed')).toEqual([]);
    } finally {
      stream.close();
    }
  });

  it('is kept by a snapshot as the file it names, and restored', async () => {
    const r = room('file-snap');
    await send('PUT', `/api/rooms/${r}/scene`, {
      layers: [
        { id: 'g', source: { specimen: 'cloud' }, opacity: 0.5 },
        { id: 'ramp', source: { function: 'ramp' } },
      ],
    });
    await allShown(r);
    const taken = await send('POST', `/api/rooms/${r}/snapshots`);
    expect(taken.status).toBe(201);
    const { id } = (await taken.json()) as SnapshotCreated;
    const snapshot = (await (await fetch(`${server.url}/api/snapshots/${id}`)).json()) as SnapshotDocument;
    const kept = snapshot.scene.layers.find((l) => l.id === 'g')!;
    expect(kept).toMatchObject({ opacity: 0.5, result: FILE_RESULT });
    expect(snapshot.scene.layers.find((l) => l.id === 'ramp')!.result!.data_url).toMatch(/^\/api\/blobs\//);

    await send('DELETE', `/api/rooms/${r}/layers/g`);
    expect((await send('PUT', `/api/rooms/${r}/scene`, { snapshot: id })).status).toBe(200);
    expect(layerOf(await allShown(r), 'g')).toMatchObject({ opacity: 0.5, result: FILE_RESULT });
  });

  it('is refused when no layer shows its type, or when the kind asked for cannot show it', async () => {
    const r = room('file-refused');
    const notes = await send('POST', `/api/rooms/${r}/layers`, { source: { specimen: 'notes' } });
    expect(notes.status).toBe(400);
    expect(((await notes.json()) as { detail: string }).detail).toMatch(
      /^layer\.source\.specimen 'notes' is a 'notes\.txt' file of type 'document', which no layer shows/,
    );
    const asImage = await send('POST', `/api/rooms/${r}/layers`, { source: { specimen: 'cloud' }, kind: 'image' });
    expect(asImage.status).toBe(400);
    expect(((await asImage.json()) as { detail: string }).detail).toMatch(/^layer\.kind 'image' cannot show a point_cloud result/);
    expect((await scene(r)).layers).toEqual([]);
  });
});
