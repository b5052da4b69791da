/**
 * @module blob-result-pins
 * A snapshot's results pinned in a blob store, whichever it is: each result put for at least
 * the snapshot's time-to-live (a put only ever lengthens a blob's life), the refs kept in the
 * snapshot's record, and a snapshot intact while every ref is whole. A Redis service's blob
 * store and a lone host's data folder both pin this way (redis-snapshot-store.ts,
 * disk-snapshot-store.ts); a store that answers it did not keep the bytes refuses the snapshot.
 */
import type { BlobRef, BlobStore, PutBlob } from '../blobs/blob-store.ts';
import { createHostError } from '../errors.ts';
import { loadFileResult, type FileResult } from '../results/file-result.ts';
import type { StoredResult } from '../results/stored-result.ts';
import type { ResultPins } from './snapshot-store.ts';

export class BlobResultPins implements ResultPins {
  #blobs: Pick<BlobStore, 'put' | 'touch' | 'putFile'>;

  constructor(blobs: Pick<BlobStore, 'put' | 'touch' | 'putFile'>) {
    this.#blobs = blobs;
  }

  async pin(_snapshotId: string, results: StoredResult[], ttlMs: number): Promise<BlobRef[]> {
    return this.#each(results, (result) => this.#blobs.put(result, ttlMs));
  }

  /** Results lying in a file: taken from it where the store can, else read in one at a time. */
  async pinFiles(_snapshotId: string, results: FileResult[], ttlMs: number): Promise<BlobRef[]> {
    const { putFile } = this.#blobs;
    return this.#each(results, async (result) => (putFile ? putFile.call(this.#blobs, result, ttlMs) : this.#blobs.put(await loadFileResult(result), ttlMs)));
  }

  async #each<R>(results: R[], put: (result: R) => Promise<PutBlob>): Promise<BlobRef[]> {
    const refs: BlobRef[] = [];
    for (const result of results) {
      const stored = await put(result);
      if (!stored.stored) throw createHostError('SPC_ERR_REDIS_UNAVAILABLE', "the blob store is out of memory and could not keep the snapshot's bytes");
      refs.push({ hash: stored.hash, meta: stored.meta });
    }
    return refs;
  }

  async intact(_snapshotId: string, pins: unknown): Promise<boolean> {
    const refs = Array.isArray(pins) ? (pins as BlobRef[]) : [];
    // A life of 1 ms never shortens one (it only ever lengthens): this only asks whether each is whole.
    const whole = await Promise.all(refs.map((ref) => this.#blobs.touch(ref, 1)));
    return whole.every(Boolean);
  }

  close(): void {}
}
