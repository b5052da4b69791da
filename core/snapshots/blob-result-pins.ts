/**
 * @module blob-result-pins
 * A snapshot's results pinned in a blob store, whichever it is: each result put for at least
 * the snapshot's time-to-live (a put only ever lengthens a blob's life), the refs kept in the
 * snapshot's record, and a snapshot intact while every ref is whole. A Redis service's blob
 * store and a lone host's data folder both pin this way (redis-snapshot-store.ts,
 * disk-snapshot-store.ts); a store that answers it did not keep the bytes refuses the snapshot.
 */
import type { BlobRef, BlobStore } from '../blobs/blob-store.ts';
import { createHostError } from '../errors.ts';
import type { StoredResult } from '../results/stored-result.ts';
import type { ResultPins } from './snapshot-store.ts';

export class BlobResultPins implements ResultPins {
  #blobs: Pick<BlobStore, 'put' | 'touch'>;

  constructor(blobs: Pick<BlobStore, 'put' | 'touch'>) {
    this.#blobs = blobs;
  }

  async pin(_snapshotId: string, results: StoredResult[], ttlMs: number): Promise<BlobRef[]> {
    const refs: BlobRef[] = [];
    for (const result of results) {
      const put = await this.#blobs.put(result, ttlMs);
      if (!put.stored) throw createHostError('SPC_ERR_REDIS_UNAVAILABLE', "the blob store is out of memory and could not keep the snapshot's bytes");
      refs.push({ hash: put.hash, meta: put.meta });
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
