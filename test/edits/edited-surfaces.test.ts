/**
 * The surfaces of an edited segmentation follow its edits, over real HTTP: with the mesh files
 * of two segments fetched, an edit that changes one of them makes a version (a result of its
 * own) whose untouched segment answers the same bytes and ETag as before, built no more (the
 * host's `/metrics` count of level sets built), while the changed segment alone is built again,
 * as soon as the version is made (it was being looked at), its files differing from before and
 * equal to those of a fresh build of the version's voxels.
 */
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../core/app.ts';
import { decodeEnvelope, type DecodedVolume } from '../../core/envelope/decode-envelope.ts';
import { runLodsTask } from '../../core/meshes/run-lods-task.ts';
import type { StoredResult } from '../../core/results/stored-result.ts';
import { room } from '../helpers/create-test-app.ts';
import { fixturePluginsDir } from '../helpers/fixture-plugins.ts';
import { makeSpecimensDir } from '../helpers/specimens-dir.ts';
import { waitFor } from '../helpers/wait-for.ts';

const SIZE = 40;
const BLOBS = { function: 'label_blobs', params: { size: SIZE, count: 6, dtype: 'uint16', stride: 100 } };
/** The segment the edit changes, and one it leaves alone. */
const [EDITED, UNTOUCHED] = [100, 200];

interface Answer {
  bytes: Buffer;
  etag: string | null;
}

/** The first and last voxel (z, y, x) of `id`, worked out here. */
function boxOf(volume: DecodedVolume, id: number): number[] {
  const box = [SIZE, SIZE, SIZE, -1, -1, -1];
  volume.data.forEach((value, i) => {
    if (value !== id) return;
    const at = [Math.floor(i / (SIZE * SIZE)), Math.floor(i / SIZE) % SIZE, i % SIZE];
    at.forEach((v, axis) => {
      box[axis] = Math.min(box[axis]!, v);
      box[axis + 3] = Math.max(box[axis + 3]!, v);
    });
  });
  return box;
}

describe('surfaces of an edited segmentation', () => {
  let app: FastifyInstance;
  let url: string;
  let r: string;

  const labels = async (query = '') => {
    const response = await fetch(`${url}/api/rooms/${r}/layers/seg/labels${query}`);
    expect(response.status).toBe(200);
    return { volume: decodeEnvelope(new Uint8Array(await response.arrayBuffer())) as DecodedVolume, resultId: response.headers.get('x-result-id')! };
  };
  const built = async () => {
    const text = await (await fetch(`${url}/metrics`)).text();
    return Number(/^vitrine_mesh_level_sets\{how="built"\} (\d+)$/m.exec(text)![1]);
  };
  /** A segment's manifest, Draco fragments, sidecar, first coarsest GLB fragment and finest level as one mesh. */
  const files = async (resultId: string, segment: number): Promise<Record<string, Answer>> => {
    const base = `${url}/api/results/${resultId}/meshes/${segment}`;
    const sidecar = (await (await fetch(`${base}.json`)).json()) as { levels: number; coarsest: { glb: string }[] };
    const glb = `${url}/api/results/${resultId}/meshes/${sidecar.coarsest[0]!.glb}`;
    const keys = { index: `${base}.index`, draco: base, json: `${base}.json`, glb, level: `${base}/0` };
    const out: Record<string, Answer> = {};
    for (const [name, at] of Object.entries(keys)) {
      const response = await fetch(at);
      expect(response.status, at).toBe(200);
      out[name] = { bytes: Buffer.from(await response.arrayBuffer()), etag: response.headers.get('etag') };
    }
    return out;
  };

  beforeAll(async () => {
    app = await createApp({ pluginsDir: await fixturePluginsDir(), specimensDir: await makeSpecimensDir(), logLevel: false, poolSize: 2, viewer: false });
    url = await app.listen({ host: '127.0.0.1', port: 0 });
    r = room();
    const made = await fetch(`${url}/api/rooms/${r}/layers`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ id: 'seg', source: BLOBS, kind: 'labels' }),
    });
    expect(made.status).toBe(201);
  });
  afterAll(() => app.close());

  it('keeps an untouched segment’s bytes and ETag and builds only the changed one again', async () => {
    const base = await labels();
    const before = { edited: await files(base.resultId, EDITED), untouched: await files(base.resultId, UNTOUCHED) };
    const builtBefore = await built();
    expect(builtBefore).toBe(2);

    // Erase a ball inside the edited segment, over its voxels only.
    const [z0, y0, x0, z1, y1, x1] = boxOf(base.volume, EDITED);
    const center = [Math.round((z0! + z1!) / 2), Math.round((y0! + y1!) / 2), Math.round((x0! + x1!) / 2)];
    const edit = await fetch(`${url}/api/rooms/${r}/layers/seg/edits`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ op: 'paint', label: 0, center, radius: 2, only: EDITED }),
    });
    expect(edit.status).toBe(201);
    expect(((await edit.json()) as { segments: unknown }).segments).toEqual({ changed: [EDITED], new: [] });

    const version = await labels('?version=1');
    expect(version.resultId).not.toBe(base.resultId);
    // The changed segment, looked at before the edit, is built once the version is made, unasked.
    await waitFor(async () => ((await built()) === builtBefore + 1 ? true : undefined), 'the changed segment built ahead', 30_000);
    const untouched = await files(version.resultId, UNTOUCHED);
    for (const name of Object.keys(untouched)) {
      expect(untouched[name]!.bytes.equals(before.untouched[name]!.bytes), name).toBe(true);
      expect(untouched[name]!.etag, name).toBe(before.untouched[name]!.etag);
    }
    expect(untouched.draco!.etag).toContain(base.resultId);

    const edited = await files(version.resultId, EDITED);
    expect(await built()).toBe(builtBefore + 1);
    expect(edited.draco!.bytes.equals(before.edited.draco!.bytes)).toBe(false);
    expect(edited.draco!.etag).not.toBe(before.edited.draco!.etag);
    expect(edited.draco!.etag).toContain(version.resultId);

    // A fresh build of the edited segment from the version's voxels, in this process.
    const { volume } = version;
    const { shape, dtype, data } = volume;
    const stored = { type: 'volume', shape, dtype, data, spacing: volume.spacing!, origin: volume.origin! } as StoredResult & { type: 'volume' };
    const { lods } = await runLodsTask({ op: 'meshLods', source: { kind: 'labels', volume: stored, id: EDITED, box: boxOf(volume, EDITED), triangles: 0 } });
    expect(edited.draco!.bytes.equals(Buffer.from(lods.draco))).toBe(true);
    expect(edited.index!.bytes.equals(Buffer.from(lods.manifest))).toBe(true);
  });
});
