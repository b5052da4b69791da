/**
 * @module blob-store-cases
 * The BlobStore conformance cases: what every blob store (memory, Redis, S3) must do alike.
 * Every result type survives a round trip with its arrays' types and values, a result larger
 * than one Redis chunk among them; equal results share one content hash, which is the result
 * id; a result opened for sending comes whole, or arriving and then whole; expiry, touch and
 * lookups by id behave alike. Each implementation's test file supplies a harness: a store, and
 * a way to make one blob expire as the store itself would.
 */
import { describe, expect, it } from 'vitest';
import type { BlobStore, OpenedBlob } from '../../core/blobs/blob-store.ts';
import { CHUNK_BYTES } from '../../core/blobs/redis-blob-store.ts';
import { computeResultId, knownResultId } from '../../core/results/result-id.ts';
import type { StoredResult } from '../../core/results/stored-result.ts';
import { expectSameResult } from './same-result.ts';

export interface BlobStoreHarness {
  store: BlobStore;
  /** Makes the blob stored under `hash` expire, as time passing would. */
  expire(hash: string): Promise<void>;
}

function shared<T extends Float32Array | Uint32Array | Uint8Array | Uint16Array>(make: (buffer: SharedArrayBuffer) => T): T {
  return make(new SharedArrayBuffer(1024 * 1024));
}

/** One result of each type, and one larger than a Redis chunk whose arrays cross chunk edges. */
export const BLOB_RESULTS: Record<string, () => StoredResult> = {
  mesh: () => ({
    type: 'mesh',
    vertices: new Float32Array([0, 0, 0, 1, 0, 0, 0, 1, 0]),
    indices: new Uint32Array([0, 1, 2]),
    normals: new Float32Array([0, 0, 1, 0, 0, 1, 0, 0, 1]),
  }),
  volume: () => ({
    type: 'volume',
    shape: [2, 2, 3],
    dtype: 'uint16',
    data: new Uint16Array([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 65535]),
    spacing: [1, 1, 0.5],
    valueRange: [1, 65535],
  }),
  point_cloud: () => ({ type: 'point_cloud', points: new Float32Array([1.5, 2.5, 3.5]), colors: new Uint8Array([255, 0, 7]) }),
  image: () => ({ type: 'image', width: 2, height: 1, channels: 3, dtype: 'uint8', data: shared((b) => new Uint8Array(b, 0, 6)).fill(9) }),
  // Larger than one chunk, its arrays not multiples of the chunk size: chunks cross array edges.
  large: () => {
    const vertices = new Float32Array((CHUNK_BYTES * 1.5) / 4 + 3).map((_, i) => i * 0.5);
    return { type: 'mesh', vertices, indices: new Uint32Array(7).map((_, i) => i) };
  },
};

/** The opened result once every byte is in (at once when it came whole). */
async function whole(opened: OpenedBlob): Promise<StoredResult> {
  if (opened.arriving) for (const view of Object.values(opened.result)) if (ArrayBuffer.isView(view)) await opened.arriving.arrived(view, view.byteLength);
  return opened.result;
}

export function blobStoreConformance(label: string, make: () => BlobStoreHarness): void {
  describe(`${label} blob store`, () => {
    for (const [name, build] of Object.entries(BLOB_RESULTS)) {
      it(`round-trips a ${name} result: fields, array types and values`, async () => {
        const { store } = make();
        const result = build();
        const ref = await store.put(result, 60_000);
        expectSameResult(await store.get(ref), result);
      });
    }

    it('gives equal results one content hash and different ones another', async () => {
      const { store } = make();
      const a = await store.put(BLOB_RESULTS.mesh!(), 60_000);
      const b = await store.put(BLOB_RESULTS.mesh!(), 60_000);
      const other = BLOB_RESULTS.mesh!();
      (other as { vertices: Float32Array }).vertices[0] = 42;
      const c = await store.put(other, 60_000);
      expect(a.hash).toMatch(/^[0-9a-f]{64}$/);
      expect(b.hash).toBe(a.hash);
      expect(c.hash).not.toBe(a.hash);
    });

    it('answers null once a blob has expired', async () => {
      const { store, expire } = make();
      const ref = await store.put(BLOB_RESULTS.point_cloud!(), 60_000);
      await expire(ref.hash);
      expect(await store.get(ref)).toBeNull();
      expect(await store.find(ref.hash)).toBeNull();
      expect(await store.open(ref)).toBeNull();
    });

    it('touches a stored blob, and answers false for one gone', async () => {
      const { store, expire } = make();
      const ref = await store.put(BLOB_RESULTS.volume!(), 60_000);
      expect(await store.touch(ref, 120_000)).toBe(true);
      await expire(ref.hash);
      expect(await store.touch(ref, 120_000)).toBe(false);
    });

    it('opens a result for sending: whole, or arriving and then whole', async () => {
      const { store } = make();
      const result = BLOB_RESULTS.large!();
      const ref = await store.put(result, 60_000);
      const opened = await store.open(ref);
      expect(opened).not.toBeNull();
      expectSameResult(await whole(opened!), result);
    });

    it('finds a result by its id alone: the content hash, which is the result id', async () => {
      const { store } = make();
      const result = BLOB_RESULTS.volume!();
      const ref = await store.put(result, 60_000);
      expect(ref.hash).toBe(computeResultId(BLOB_RESULTS.volume!()));
      const found = await store.find(ref.hash);
      expect(Array.from((found as { data: Uint16Array }).data)).toEqual(Array.from((result as { data: Uint16Array }).data));
      expect(knownResultId(found!)).toBe(ref.hash);
      expect(await store.find('0'.repeat(64))).toBeNull();
    });
  });
}
