/**
 * @module memory-blob-store
 * A BlobStore in one process's memory, with the same content addressing and expiry as the
 * Redis one. No host opens it (a service's hosts must share their store); it is the
 * implementation with no backend behind it, which keeps the interface honest (nothing Redis-
 * or S3-shaped leaks into it), and a store for tests of what sits on blobs. The memory is the store itself, so nothing is
 * held in front of it: `holds` says whether a blob is stored, `dropLocal` forgets nothing.
 */
import type { StoredResult } from '../results/stored-result.ts';
import { blobResult, frameOf, type BlobMeta, type BlobRef, type BlobStore, type OpenedBlob, type PutBlob } from './blob-store.ts';

export class MemoryBlobStore implements BlobStore {
  #blobs = new Map<string, { bytes: Uint8Array; meta: string; expiresAt: number }>();
  #now: () => number;

  constructor(now: () => number = Date.now) {
    this.#now = now;
  }

  async put(result: StoredResult, ttlMs: number): Promise<PutBlob> {
    const { header, blocks, hash } = frameOf(result);
    const meta: BlobMeta = { header, chunkBytes: header.byteLength, chunks: header.byteLength > 0 ? 1 : 0 };
    const held = this.#blobs.get(hash);
    if (held) held.expiresAt = Math.max(held.expiresAt, this.#now() + ttlMs);
    else this.#blobs.set(hash, { bytes: Buffer.concat(blocks), meta: JSON.stringify(meta), expiresAt: this.#now() + ttlMs });
    return { hash, meta: JSON.stringify(meta), stored: true };
  }

  async get(ref: BlobRef): Promise<StoredResult | null> {
    const held = this.#blobs.get(ref.hash);
    if (!held || held.expiresAt <= this.#now()) return null;
    const meta = JSON.parse(ref.meta) as BlobMeta;
    const payload = new SharedArrayBuffer(meta.header.byteLength);
    new Uint8Array(payload).set(held.bytes);
    return blobResult(meta.header, payload, ref.hash);
  }

  async find(hash: string): Promise<StoredResult | null> {
    const held = this.#blobs.get(hash);
    return held ? this.get({ hash, meta: held.meta }) : null;
  }

  async touch(ref: BlobRef, ttlMs: number): Promise<boolean> {
    const held = this.#blobs.get(ref.hash);
    if (!held || held.expiresAt <= this.#now()) return false;
    held.expiresAt = Math.max(held.expiresAt, this.#now() + ttlMs);
    return true;
  }

  async open(ref: BlobRef): Promise<OpenedBlob | null> {
    const result = await this.get(ref);
    return result ? { result, arriving: null } : null;
  }

  holds(hash: string): boolean {
    return (this.#blobs.get(hash)?.expiresAt ?? 0) > this.#now();
  }

  dropLocal(): void {}

  close(): void {
    this.#blobs.clear();
  }
}
