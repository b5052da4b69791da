/**
 * @module disk-kept-results
 * Computed results a lone host keeps on disk (`--disk-cache-max-bytes`), so a restart shows
 * every room's layers as they were without computing them again: each result's frame a file of
 * the data folder's content-addressed bytes (shared with blobs of the same content), and a
 * record of the `kept` database with its size and when it was last used. Past the bound the
 * least recently used go first (a dropped one is computed again when asked); a file a blob
 * record (a snapshot's pin, an upload) still names stays for it. Each result also names the
 * cache slot and key it was computed for, so a request of that slot after a restart (a page's
 * own `/data`, a layer's data URL) finds it rather than computing it again.
 */
import type { DataStore } from '../durable/data-store.ts';
import { DISK } from '../durable/disk-keys.ts';
import type { StoredResult } from '../results/stored-result.ts';
import { frameOf, type BlobMeta } from './blob-store.ts';
import type { DiskBlobStore } from './disk-blob-store.ts';

/** The cache slot (a room, or a layer's) and key a result was computed for. */
export interface KeptSlot {
  slotId: string;
  key: string;
}

interface KeptRecord {
  meta: string;
  bytes: number;
  used: number;
}

export class DiskKeptResults {
  #store: DataStore;
  #blobs: DiskBlobStore;
  #maxBytes: number;
  #now: () => number;
  #total = 0;

  constructor(store: DataStore, blobs: DiskBlobStore, maxBytes: number, now: () => number = Date.now) {
    this.#store = store;
    this.#blobs = blobs;
    this.#maxBytes = maxBytes;
    this.#now = now;
    for (const { value } of this.#db.getRange()) this.#total += value.bytes;
  }

  get #db() {
    return this.#store.db<KeptRecord>(DISK.kept.name);
  }

  /** Bytes kept now. */
  get bytes(): number {
    return this.#total;
  }

  get #slots() {
    return this.#store.db<string>(DISK.keptSlots.name);
  }

  /**
   * Keeps `result` (or marks it used again), as the result of `slot` when given; results larger
   * than the whole bound are not kept.
   */
  async keep(result: StoredResult, slot?: KeptSlot): Promise<void> {
    const { header, blocks, hash } = frameOf(result);
    const bytes = header.byteLength;
    if (bytes > this.#maxBytes) return;
    // One kept already is only marked used again (and named for `slot`).
    const held = this.#db.get(hash);
    if (!held) await this.#store.blobs.put(blocks, hash);
    const meta = held?.meta ?? JSON.stringify({ header, chunkBytes: bytes, chunks: bytes > 0 ? 1 : 0 } satisfies BlobMeta);
    await this.#store.write(() => {
      this.#db.put(hash, { meta, bytes, used: this.#now() });
      if (slot) this.#slots.put(slotKey(slot), hash);
    });
    if (held) return;
    this.#total += bytes;
    if (this.#total > this.#maxBytes) await this.#evict();
  }

  /** The kept result with id `hash`, or null. */
  async find(hash: string): Promise<StoredResult | null> {
    const held = /^[0-9a-f]{64}$/.test(hash) ? this.#db.get(hash) : undefined;
    return held ? this.#blobs.read({ hash, meta: held.meta }) : null;
  }

  /** The result kept for `slot`, or null (none was, or it was dropped since). */
  async recall(slot: KeptSlot): Promise<StoredResult | null> {
    const hash = this.#slots.get(slotKey(slot));
    return hash ? this.find(hash) : null;
  }

  /** Drops the least recently used until the kept bytes are within the bound. */
  async #evict(): Promise<void> {
    const all = [...this.#db.getRange()].map(({ key, value }) => ({ hash: key as string, ...value })).sort((a, b) => a.used - b.used);
    const gone: string[] = [];
    let total = this.#total;
    for (const record of all) {
      if (total <= this.#maxBytes) break;
      gone.push(record.hash);
      total -= record.bytes;
    }
    const dropped = new Set(gone);
    const names = [...this.#slots.getRange()].filter(({ value }) => dropped.has(value)).map(({ key }) => key);
    await this.#store.write(() => {
      for (const hash of gone) this.#db.remove(hash);
      for (const name of names) this.#slots.remove(name);
    });
    this.#total = total;
    for (const hash of gone) if (!this.#blobs.holds(hash)) await this.#store.blobs.remove(hash);
  }
}

function slotKey(slot: KeptSlot): string {
  return DISK.keptSlots.slot(slot.slotId, slot.key);
}
