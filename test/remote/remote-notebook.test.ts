/**
 * The notebook client reads remote images in place: `Client.remotes()` lists the host's
 * remotes by name, `Client.publish_remote` publishes one (its answer the shape, dtype and
 * levels), and `room.add_remote` shows one as a layer of a room; a reference outside the
 * remotes raises VitrineError with the host's 400.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RoomScene } from '../../core/wire/scene-types.ts';
import { fileTestApp, room } from '../helpers/create-test-app.ts';
import { runPython } from '../helpers/python-publish.ts';
import { samplesOf, startRemoteServer, writeV04, type RemoteServer } from '../helpers/zarr-remote.ts';

let remote: RemoteServer;
beforeAll(async () => {
  remote = await startRemoteServer();
  const levels = [{ shape: [2, 6, 10, 8], data: samplesOf('uint8', 2 * 6 * 10 * 8, 4) }];
  const spec = { path: 'plate/well.ome.zarr', axes: 'czyx', dtype: 'uint8' as const, chunks: [1, 4, 4, 4], compression: 'gzip' as const, scale: [1, 1, 1, 1] };
  await writeV04(remote.files, { ...spec, levels }, '/');
});
afterAll(() => remote?.close());

const host = fileTestApp(async () => ({ remotes: { lab: remote.url } }));

const SCRIPT = (r: string) => `
import json, os
from vitrine import Client, VitrineError
c = Client(os.environ["VITRINE_URL"])
published = c.publish_remote("well", "lab/plate/well.ome.zarr", channel=1, display_name="Well")
layer = c.room(${JSON.stringify(r)}).add_remote("lab/plate/well.ome.zarr", id="well-layer", channel=0, opacity=0.5)
try:
    c.publish_remote("bad", "lab/../secret.ome.zarr")
    refused = None
except VitrineError as e:
    refused = [e.status, e.code]
print(json.dumps({"remotes": c.remotes(), "published": published, "layer": layer, "refused": refused}))
`;

describe('the notebook client and remotes', () => {
  it('lists, publishes and adds a remote image; refuses one outside the remotes', async () => {
    const r = room();
    const out = await runPython<{ remotes: string[]; published: Record<string, unknown>; layer: string; refused: unknown[] }>(SCRIPT(r), host.url);
    expect(out.remotes).toEqual(['lab']);
    expect(out.published).toMatchObject({ id: 'well', shape: [6, 10, 8], dtype: 'uint8', axes: 'zyx', channel: 1, levels: [[6, 10, 8]] });
    expect(out.layer).toBe('well-layer');
    expect(out.refused).toEqual([400, 'SPC_ERR_REMOTE_NOT_ALLOWED']);
    const scene = (await host.app.inject({ method: 'GET', url: `/api/rooms/${r}/scene` })).json() as RoomScene;
    expect(scene.layers.map((l) => [l.id, l.opacity, Boolean(l.result)])).toEqual([['well-layer', 0.5, true]]);
  });
});
