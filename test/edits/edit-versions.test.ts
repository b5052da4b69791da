/**
 * Every version of an edited labels layer is a result, over real HTTP: after an edit the layer's
 * `result` in the room's scene names the current version's id (the one `.../labels` answers),
 * its data URL reads that version, its provenance names the base result and the edits by seq
 * (in the scene, the room's provenance and the `Vitrine-Provenance` header), the Neuroglancer
 * state points at it, a replay set to a moment shows the version of that moment, and a snapshot
 * pins the version it saw: restored after a later edit (and carried by a session file to another
 * host) it shows that version, not the latest; the session file carries the edits themselves,
 * made again where it is restored, so the list and undo go on there.
 */
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../core/app.ts';
import { decodeEnvelope, type DecodedVolume } from '../../core/envelope/decode-envelope.ts';
import type { RoomScene, SceneLayer } from '../../core/wire/scene-types.ts';
import { room } from '../helpers/create-test-app.ts';
import { fixturePluginsDir } from '../helpers/fixture-plugins.ts';
import { makeSpecimensDir } from '../helpers/specimens-dir.ts';
import { openStream } from '../helpers/sse-reader.ts';
import { waitFor } from '../helpers/wait-for.ts';

const BLOBS = { function: 'label_blobs', params: { size: 32, count: 6, dtype: 'uint16', stride: 100 } };

describe('versions of an edited labels layer', () => {
  let app: FastifyInstance;
  let other: FastifyInstance;
  let url: string;
  let otherUrl: string;
  let r: string;
  const json = async (path: string, init?: RequestInit) => {
    const response = await fetch(`${url}${path}`, init);
    return { status: response.status, body: (await response.json()) as Record<string, unknown>, headers: response.headers };
  };
  const post = (path: string, body: unknown, base = url) =>
    fetch(`${base}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  const volumeAt = async (path: string, base = url) => {
    const response = await fetch(`${base}${path}`);
    expect(response.status).toBe(200);
    return { volume: decodeEnvelope(new Uint8Array(await response.arrayBuffer())) as DecodedVolume, headers: response.headers };
  };
  const sceneLayer = async (roomId = r, base = url): Promise<SceneLayer> =>
    ((await (await fetch(`${base}/api/rooms/${roomId}/scene`)).json()) as RoomScene).layers.find((l) => l.id === 'seg')!;
  /** The layer once its result names `edits` edits (the version's id is named off the edit's path). */
  const namedAfter = async (edits: number): Promise<SceneLayer> => {
    return waitFor(async () => {
      const layer = await sceneLayer();
      return (layer.result?.provenance?.edits?.length ?? 0) === edits && layer.result ? layer : undefined;
    }, `the layer's result naming ${edits} edits`);
  };

  beforeAll(async () => {
    const options = { pluginsDir: await fixturePluginsDir(), specimensDir: await makeSpecimensDir(), logLevel: false as const, poolSize: 1, viewer: false };
    app = await createApp(options);
    url = await app.listen({ host: '127.0.0.1', port: 0 });
    other = await createApp({ ...options, specimensDir: await makeSpecimensDir() });
    otherUrl = await other.listen({ host: '127.0.0.1', port: 0 });
    r = room();
    expect((await post(`/api/rooms/${r}/layers`, { id: 'seg', source: BLOBS, kind: 'labels' })).status).toBe(201);
  });
  afterAll(async () => {
    await app.close();
    await other.close();
  });

  /** Snapshot `id`'s session file taken in by the other host and restored there into a fresh room, whose id it answers. */
  async function restoredElsewhere(id: string): Promise<string> {
    const file = new Uint8Array(await (await fetch(`${url}/api/snapshots/${id}?format=bundle`)).arrayBuffer());
    const loaded = await fetch(`${otherUrl}/api/snapshots`, { method: 'POST', headers: { 'content-type': 'application/x-tar' }, body: file });
    expect(loaded.status).toBeLessThan(300);
    const elsewhere = room();
    const put = await fetch(`${otherUrl}/api/rooms/${elsewhere}/scene`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ snapshot: id }),
    });
    expect(put.status).toBe(200);
    return elsewhere;
  }

  it("names the current version as the layer's result, with its base and edits as provenance", async () => {
    const base = await volumeAt(`/api/rooms/${r}/layers/seg/labels?version=0`);
    const baseId = base.headers.get('x-result-id')!;
    const unedited = await namedAfter(0);
    expect(unedited.result?.result_id).toBe(baseId);
    const stream = await openStream(`${url}/api/rooms/${r}/events`);
    const merged = (await (await post(`/api/rooms/${r}/layers/seg/edits`, { op: 'merge', segments: [100, 200] })).json()) as { seq: number };
    const painted = (await (await post(`/api/rooms/${r}/layers/seg/edits`, { op: 'paint', label: 9, center: [5, 5, 5], radius: 2 })).json()) as {
      seq: number;
    };
    const layer = await namedAfter(2);
    // Followers are told by the scene event that names it.
    const told = await stream.next((e) => e.event === 'scene' && (e.data as RoomScene).layers.some((l) => l.result?.provenance?.edits?.length === 2));
    expect(told).toBeTruthy();
    stream.close();
    const current = await volumeAt(`/api/rooms/${r}/layers/seg/labels`);
    expect(current.headers.get('x-labels-version')).toBe('2');
    expect(layer.result!.result_id).toBe(current.headers.get('x-result-id'));
    expect(layer.result!.result_id).not.toBe(baseId);
    expect(layer.result!.provenance).toMatchObject({ function: 'label_blobs', base_result: baseId, edits: [merged.seq, painted.seq] });
    // Its data URL reads that very version: the merge and the paint applied to the base, voxel for voxel.
    const viaUrl = await volumeAt(layer.result!.data_url);
    const expected = Array.from(base.volume.data, (v) => (v === 200 ? 100 : v));
    for (let z = 0; z < 32; z++)
      for (let y = 0; y < 32; y++)
        for (let x = 0; x < 32; x++) if ((z - 5) ** 2 + (y - 5) ** 2 + (x - 5) ** 2 <= 4) expected[(z * 32 + y) * 32 + x] = 9;
    expect(Array.from(viaUrl.volume.data)).toEqual(expected);
    // The version's result is found by its id, and says what made it.
    expect((await fetch(`${url}/api/results/${layer.result!.result_id}`)).status).toBe(200);
    const said = current.headers.get('vitrine-provenance')!;
    expect(said).toContain(`base=${baseId.slice(0, 12)}`);
    expect(said).toContain(`edits=${merged.seq},${painted.seq}`);
    const room = await json(`/api/rooms/${r}/provenance`);
    const listed = (room.body.layers as { id: string; provenance: Record<string, unknown> }[]).find((l) => l.id === 'seg')!;
    expect(listed.provenance).toMatchObject({ base_result: baseId, edits: [merged.seq, painted.seq] });
    // Neuroglancer reads the layer at its current version.
    const state = JSON.stringify((await json(`/api/rooms/${r}/neuroglancer`)).body);
    expect(state).toContain(`/api/results/${layer.result!.result_id}.ome.zarr/`);
    expect(state).not.toContain(`/api/results/${baseId}.`);
  });

  it("replays the layer's versions in order: set to a moment, a room shows the version the other room showed then", async () => {
    const log = (await json(`/api/rooms/${r}/log?since=0&limit=1000`)).body.entries as { type: string; ts: number; scene?: RoomScene }[];
    const named = log.flatMap((entry) => {
      const result = entry.type === 'layer' ? entry.scene?.layers.find((l) => l.id === 'seg')?.result : undefined;
      return result?.provenance?.edits ? [{ ts: entry.ts, result }] : [];
    });
    expect(named.length).toBeGreaterThan(0);
    const counts = named.map(({ result }) => result.provenance!.edits!.length);
    expect(counts).toEqual([...counts].sort((a, b) => a - b));
    for (const { ts, result } of named) {
      const into = room();
      const answer = await post(`/api/rooms/${into}/replay`, { from: r, at: ts });
      expect(answer.status).toBe(200);
      const shown = await sceneLayer(into);
      expect(shown.result).toMatchObject({ result_id: result.result_id, provenance: { edits: result.provenance!.edits } });
      const bytes = await volumeAt(shown.result!.data_url);
      expect(bytes.headers.get('x-result-id')).toBe(result.result_id);
    }
  });

  it('pins the version a snapshot saw: restored after a later edit, and carried by a session file, it shows that one', async () => {
    const seen = (await sceneLayer()).result!;
    const seenVolume = await volumeAt(seen.data_url);
    const taken = (await (await post(`/api/rooms/${r}/snapshots`, {})).json()) as { id: string };
    const document = (await json(`/api/snapshots/${taken.id}`)).body as { scene: { layers: SceneLayer[] } };
    expect(document.scene.layers[0]!.result).toMatchObject({ result_id: seen.result_id, provenance: { edits: seen.provenance!.edits } });
    // A later edit moves the room on; the snapshot keeps the version it saw.
    expect((await post(`/api/rooms/${r}/layers/seg/edits`, { op: 'merge', segments: [300, 400] })).status).toBe(201);
    const later = await namedAfter(seen.provenance!.edits!.length + 1);
    expect(later.result!.result_id).not.toBe(seen.result_id);
    const into = room();
    const restoring = await fetch(`${url}/api/rooms/${into}/scene`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ snapshot: taken.id }),
    });
    expect(restoring.status).toBe(200);
    const restored = await sceneLayer(into);
    expect(restored.result!.result_id).toBe(seen.result_id);
    expect(Array.from((await volumeAt(restored.result!.data_url)).volume.data)).toEqual(Array.from(seenVolume.volume.data));
    // The session file carries the edited bytes: another host shows them in a room it restores.
    const elsewhere = await restoredElsewhere(taken.id);
    const there = await sceneLayer(elsewhere, otherUrl);
    expect(there.result).toMatchObject({ result_id: seen.result_id, provenance: { base_result: seen.provenance!.base_result } });
    expect(Array.from((await volumeAt(there.result!.data_url, otherUrl)).volume.data)).toEqual(Array.from(seenVolume.volume.data));
  });

  it('carries the edits themselves in a session file: made again where it is restored, their list and undo go on there', async () => {
    const seen = (await sceneLayer()).result!;
    const count = seen.provenance!.edits!.length;
    const taken = (await (await post(`/api/rooms/${r}/snapshots`, {})).json()) as { id: string };
    const document = (await json(`/api/snapshots/${taken.id}`)).body as { edits: { layer: string; seq: number; version: number; edit: { op: string } }[] };
    const own = (await json(`/api/rooms/${r}/layers/seg/edits`)).body.edits as { seq: number; edit: { op: string } }[];
    expect(document.edits.map((e) => [e.layer, e.seq, e.version])).toEqual(seen.provenance!.edits!.map((seq, k) => ['seg', seq, k + 1]));
    expect(document.edits.map((e) => e.edit)).toEqual(own.slice(0, count).map((e) => e.edit));
    // Another host takes the file in and restores it into a room of its own.
    const elsewhere = await restoredElsewhere(taken.id);
    const there = `${otherUrl}/api/rooms/${elsewhere}/layers/seg`;
    const listed = (await (await fetch(`${there}/edits`)).json()) as { edits: { seq: number; version: number; edit: { op: string } }[] };
    expect(listed.edits.map((e) => [e.version, e.edit])).toEqual(document.edits.map((e) => [e.version, e.edit]));
    const current = await volumeAt(`/api/rooms/${elsewhere}/layers/seg/labels`, otherUrl);
    expect(current.headers.get('x-labels-version')).toBe(String(count));
    expect(current.headers.get('x-result-id')).toBe(seen.result_id);
    // Its last edit undone there gives back the version before it, as the room it was taken of had it.
    const undo = await fetch(`${there}/edits/${listed.edits.at(-1)!.seq}/undo`, { method: 'POST' });
    expect(undo.status).toBe(201);
    const before = await volumeAt(`/api/rooms/${r}/layers/seg/labels?version=${count - 1}`);
    const undone = await volumeAt(`/api/rooms/${elsewhere}/layers/seg/labels`, otherUrl);
    expect(undone.headers.get('x-labels-version')).toBe(String(count + 1));
    expect(undone.headers.get('x-result-id')).toBe(before.headers.get('x-result-id'));
  });
});
