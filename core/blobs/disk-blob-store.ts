/**
 * @module disk-blob-store
 * A BlobStore in a lone host's data folder: each result's frame bytes a file of the folder of
 * bytes (named by the result id, the SHA-256 of its frame), and its header and expiry a record
 * of the `blobs` database, written only once the file is whole. What pins a snapshot's results
 * and keeps uploads on a lone host; a result id no one holds in memory is found here after a
 * restart. Expired blobs are dropped by a sweep (record first, then file). A file read back is
 * checked against its result id as it is read: one whose bytes changed on disk is moved aside
 * and reads as gone (a kept result is computed again, a snapshot says its bytes were lost),
 * never served under the id, and `warn` says which.
 */
import type { DataStore } from '../durable/data-store.ts';
import { DISK } from '../durable/disk-keys.ts';
import type { FileResult } from '../results/file-result.ts';
import type { ResultHeader } from '../results/result-frame.ts';
import type { StoredResult } from '../results/stored-result.ts';
import { blobResult, frameOf, type BlobMeta, type BlobRef, type BlobStore, type OpenedBlob, type PutBlob } from './blob-store.ts';

interface BlobRecord {
  meta: string;
  expiresAt: number;
}

const SWEEP_MS = 60_000;

export class DiskBlobStore implements BlobStore {
  #store: DataStore;
  #now: () => number;
  #sweep: NodeJS.Timeout;
  #warn: (line: string) => void;

  constructor(store: DataStore, now: () => number = Date.now, warn: (line: string) => void = () => {}) {
    this.#store = store;
    this.#now = now;
    this.#warn = warn;
    this.#sweep = setInterval(() => void this.sweep().catch(() => {}), SWEEP_MS);
    this.#sweep.unref();
  }

  get #db() {
    return this.#store.db<BlobRecord>(DISK.blobs.name);
  }

  async put(result: StoredResult, ttlMs: number): Promise<PutBlob> {
    const { header, blocks, hash } = frameOf(result);
    await this.#store.blobs.put(blocks, hash);
    return this.#recorded(hash, header, ttlMs);
  }

  /** A result lying in a file, copied into the folder a slice at a time (never whole in memory). */
  async putFile(result: FileResult, ttlMs: number): Promise<PutBlob> {
    await this.#store.blobs.putRange(result.file, result.offset, result.header.byteLength, result.id);
    return this.#recorded(result.id, result.header, ttlMs);
  }

  /** The record of blob `hash`, whose file is whole: kept at least `ttlMs` from now. */
  async #recorded(hash: string, header: ResultHeader, ttlMs: number): Promise<PutBlob> {
    const meta = JSON.stringify({ header, chunkBytes: header.byteLength, chunks: header.byteLength > 0 ? 1 : 0 } satisfies BlobMeta);
    const until = this.#now() + ttlMs;
    await this.#store.write(() => {
      const held = this.#db.get(hash);
      this.#db.put(hash, { meta, expiresAt: Math.max(held?.expiresAt ?? 0, until) });
    });
    return { hash, meta, stored: true };
  }

  #live(hash: string): BlobRecord | null {
    const held = this.#db.get(hash);
    return held && held.expiresAt > this.#now() ? held : null;
  }

  async get(ref: BlobRef): Promise<StoredResult | null> {
    return this.#live(ref.hash) ? this.read(ref) : null;
  }

  /** The result a file of the folder holds, read whatever record keeps it (a blob's, or a kept result's), once its bytes hash to its id. */
  async read(ref: BlobRef): Promise<StoredResult | null> {
    const meta = JSON.parse(ref.meta) as BlobMeta;
    const payload = new SharedArrayBuffer(meta.header.byteLength);
    const read = await this.#store.blobs.readChecked(ref.hash, new Uint8Array(payload), JSON.stringify(meta.header));
    if (read === 'damaged') {
      const file = this.#store.blobs.path(ref.hash);
      this.#warn(`the bytes of result ${ref.hash} in ${file} are not the ones its id names (changed on disk): moved aside to ${file}.damaged, read as gone`);
    }
    return read === 'whole' ? blobResult(meta.header, payload, ref.hash) : null;
  }

  async find(hash: string): Promise<StoredResult | null> {
    const held = /^[0-9a-f]{64}$/.test(hash) ? this.#live(hash) : null;
    return held ? this.get({ hash, meta: held.meta }) : null;
  }

  async touch(ref: BlobRef, ttlMs: number): Promise<boolean> {
    const held = this.#live(ref.hash);
    if (!held || !this.#store.blobs.has(ref.hash)) return false;
    const until = this.#now() + ttlMs;
    if (until > held.expiresAt) await this.#store.write(() => this.#db.put(ref.hash, { ...held, expiresAt: until }));
    return true;
  }

  async open(ref: BlobRef): Promise<OpenedBlob | null> {
    const result = await this.get(ref);
    return result ? { result, arriving: null } : null;
  }

  holds(hash: string): boolean {
    return this.#live(hash) !== null;
  }

  dropLocal(): void {}

  /** Drops every expired blob: its record, then its file. */
  async sweep(): Promise<void> {
    const now = this.#now();
    const gone: string[] = [];
    for (const { key, value } of this.#db.getRange()) if (value.expiresAt <= now) gone.push(key as string);
    if (gone.length === 0) return;
    await this.#store.write(() => {
      for (const hash of gone) if ((this.#db.get(hash)?.expiresAt ?? 0) <= now) this.#db.remove(hash);
    });
    // A file a kept result still names (disk-kept-results.ts) stays for it.
    const kept = this.#store.db<unknown>(DISK.kept.name);
    for (const hash of gone) if (!this.#db.get(hash) && kept.get(hash) === undefined) await this.#store.blobs.remove(hash);
  }

  close(): void {
    clearInterval(this.#sweep);
  }
}
