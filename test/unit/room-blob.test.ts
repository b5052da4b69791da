/**
 * The viewer's blob rules for a peer's room entry: the adopted entry's blob is taken only by
 * the request that asks for that very entry, once; a volume still comes coarse first (the
 * coarse view from the room, the full one from the blob), anything else from the blob at
 * once; a blob the host no longer holds falls back to the room, and other failures stay failures.
 */
import { describe, expect, it } from 'vitest';
import type { SpecimenData } from '../../core/wire/decoded-types.ts';
import { VitrineHttpError } from '../../core/client/errors.ts';
import type { RoomEntry } from '../../core/wire/room-types.ts';
import { loadCoarseFirst, type CoarseFirstSteps } from '../../viewer/coarse-first.ts';
import { AdoptedBlob, viaBlob } from '../../viewer/room/room-blob.ts';

const entry = (params: Record<string, unknown>, blobId?: string): RoomEntry =>
  ({ function_name: 'shape_fn', specimen_id: 'shape', params, ...(blobId ? { blob_id: blobId } : {}) }) as RoomEntry;
const subject = (params: Record<string, unknown>) => ({ function_name: 'shape_fn', specimen_id: 'shape', params });
const volume = (shape: number[]) => ({ type: 'volume', shape, dtype: 'uint8', data: new Uint8Array(0) }) as unknown as SpecimenData;
const mesh = { type: 'mesh', vertices: new Float32Array(0), indices: new Uint32Array(0), normals: null } as unknown as SpecimenData;
const notFound = () => new VitrineHttpError(404, 'no such blob', 'SPC_ERR_BLOB_NOT_FOUND', 'GET /api/blobs/b');

/** Steps that record what was asked and shown. */
function recording(log: string[], first: SpecimenData, full: SpecimenData): CoarseFirstSteps {
  return {
    first: async (delivery) => (log.push(`data ${JSON.stringify(delivery ?? {})}`), first),
    full: async (delivery) => (log.push(`data full ${JSON.stringify(delivery ?? {})}`), full),
    show: async (data) => void log.push(`show ${data.type}`),
    refining: () => {},
    isCurrent: () => true,
  };
}

describe('a peer entry by its blob', () => {
  it('is taken once, by a request for that very entry (values in any key order)', () => {
    const adopted = new AdoptedBlob();
    adopted.expect(entry({ a: 1, b: [2, { c: 3 }] }, 'blob-1'));
    expect(adopted.take(subject({ b: [2, { c: 3 }], a: 1 }))).toEqual({ blobId: 'blob-1' });
    expect(adopted.take(subject({ a: 1, b: [2, { c: 3 }] }))).toBeNull();

    adopted.expect(entry({ a: 1 }, 'blob-2'));
    expect(adopted.take(subject({ a: 2 }))).toBeNull();
    expect(adopted.take(subject({ a: 1 }))).toBeNull();

    adopted.expect(entry({ a: 1 }, 'blob-3'));
    expect(adopted.take({ function_name: 'shape_fn', specimen_id: null, params: { a: 1 } })).toBeNull();
    adopted.expect(entry({ a: 1 }, 'blob-4'));
    expect(adopted.take(null)).toBeNull();
  });

  it('takes the entry of a function layer (no specimen named) for the specimen that runs the function', () => {
    const adopted = new AdoptedBlob();
    const ofFunction: RoomEntry = { function_name: 'shape_fn', specimen_id: null, params: { a: 1 }, type: 'mesh', blob_id: 'blob-5' };
    adopted.expect(ofFunction);
    expect(adopted.take(subject({ a: 1 }))).toEqual({ blobId: 'blob-5' });
    adopted.expect(ofFunction);
    expect(adopted.take(subject({ a: 2 }))).toBeNull();
    adopted.expect(ofFunction);
    expect(adopted.take({ function_name: 'other_fn', specimen_id: 'shape', params: { a: 1 } })).toBeNull();
  });

  it('takes an entry that names no blob as adopted all the same (its request follows the room)', () => {
    const adopted = new AdoptedBlob();
    adopted.expect(entry({ a: 1 }));
    expect(adopted.take(subject({ a: 1 }))).toEqual({ blobId: null });
    expect(adopted.take(subject({ a: 1 }))).toBeNull();
  });

  it('draws a mesh from the blob alone, and says it was loaded', async () => {
    const log: string[] = [];
    let loaded = 0;
    const plan = viaBlob('b', 'mesh', recording(log, mesh, mesh), async (id) => (log.push(`blob ${id}`), mesh), () => loaded++);
    await loadCoarseFirst(plan.type, { format: 'glb' }, plan.steps);
    expect(log).toEqual(['blob b', 'show mesh']);
    expect(loaded).toBe(1);
  });

  it('draws a volume coarse from the room, then whole from the blob', async () => {
    const log: string[] = [];
    const plan = viaBlob(
      'b',
      'volume',
      recording(log, volume([64, 64, 64]), volume([1, 1, 1])),
      async (id) => (log.push(`blob ${id}`), volume([256, 256, 256])),
      () => {},
    );
    await loadCoarseFirst(plan.type, undefined, plan.steps);
    // The blob is asked for once the coarse answer is in, before the coarse view is drawn.
    expect(log).toEqual(['data {"max_dim":64}', 'blob b', 'show volume', 'show volume']);
  });

  it('asks the room when the host no longer holds the blob; other failures propagate', async () => {
    const log: string[] = [];
    let loaded = 0;
    const gone = viaBlob('b', 'mesh', recording(log, mesh, mesh), async () => { throw notFound(); }, () => loaded++);
    await loadCoarseFirst(gone.type, { format: 'glb' }, gone.steps);
    expect(log).toEqual(['data {"format":"glb"}', 'show mesh']);
    expect(loaded).toBe(0);

    const failing = viaBlob(
      'b',
      'mesh',
      recording([], mesh, mesh),
      async () => {
        throw new VitrineHttpError(503, 'store unreachable', null, 'GET /api/blobs/b');
      },
      () => {},
    );
    await expect(loadCoarseFirst(failing.type, undefined, failing.steps)).rejects.toMatchObject({ status: 503 });
  });

  it('changes nothing without a blob', () => {
    const steps = recording([], mesh, mesh);
    expect(viaBlob(null, 'volume', steps, async () => mesh, () => {})).toEqual({ type: 'volume', steps });
  });
});
