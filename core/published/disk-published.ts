/**
 * @module disk-published
 * Published specimens of a lone host with a data folder: each file a blob of the folder of
 * bytes (by its SHA-256, written whole first), each record in the `published` database beside
 * a version that every publish and delete moves, so the host lists them all again after a
 * restart. A file no record names any more is removed. Records past their expiry stay listed
 * until the host removes them (`sweptByHost`): it asks first whether anything still names
 * them, and renews what does. The host serves each file where it lies (`fileOf`), so published
 * bytes take no memory until read.
 */
import type { DataStore } from '../durable/data-store.ts';
import { DISK } from '../durable/disk-keys.ts';
import { isPublishedMeta, type PublishedMeta, type PublishedShare } from './published-record.ts';

export class DiskPublished implements PublishedShare {
  #store: DataStore;
  readonly sweptByHost = true;

  constructor(store: DataStore) {
    this.#store = store;
  }

  get #db() {
    return this.#store.db<PublishedMeta | number>(DISK.published.name);
  }

  #all(): PublishedMeta[] {
    const all: PublishedMeta[] = [];
    for (const { value } of this.#db.getRange(DISK.published.all)) if (isPublishedMeta(value)) all.push(value);
    return all;
  }

  #get(id: string): PublishedMeta | null {
    const value = this.#db.get(DISK.published.specimen(id));
    return isPublishedMeta(value) ? value : null;
  }

  async version(): Promise<string> {
    return String(this.#db.get(DISK.published.version) ?? 0);
  }

  async list(): Promise<PublishedMeta[]> {
    return this.#all();
  }

  async renew(meta: PublishedMeta): Promise<void> {
    await this.#store.write(() => {
      const kept = this.#get(meta.id);
      // Only the same file lives longer: a file published over it meanwhile keeps its own expiry.
      if (kept && kept.sha === meta.sha) this.#db.put(DISK.published.specimen(meta.id), { ...kept, expires_at: Math.max(kept.expires_at, meta.expires_at) });
    });
  }

  fileOf(meta: PublishedMeta): string | null {
    return this.#store.blobs.has(meta.sha) ? this.#store.blobs.path(meta.sha) : null;
  }

  async read(meta: PublishedMeta): Promise<Buffer | null> {
    return this.#store.blobs.read(meta.sha);
  }

  async put(meta: PublishedMeta, bytes: Buffer): Promise<boolean> {
    // The bytes first: a record is never written before the whole file it names.
    await this.#store.blobs.put([bytes], meta.sha);
    const old = await this.#store.write(() => {
      const before = this.#get(meta.id);
      this.#db.put(DISK.published.specimen(meta.id), meta);
      this.#db.put(DISK.published.version, Number(this.#db.get(DISK.published.version) ?? 0) + 1);
      return before;
    });
    if (old && old.sha !== meta.sha) await this.#dropUnnamed(old.sha);
    return old !== null && old.expires_at > Date.now();
  }

  async remove(id: string): Promise<boolean> {
    const removed = await this.#store.write(() => {
      const found = this.#get(id);
      if (!found) return null;
      this.#db.remove(DISK.published.specimen(id));
      this.#db.put(DISK.published.version, Number(this.#db.get(DISK.published.version) ?? 0) + 1);
      return found;
    });
    if (removed) await this.#dropUnnamed(removed.sha);
    return removed !== null && removed.expires_at > Date.now();
  }

  /** Removes the file of `sha` unless a record names it. */
  async #dropUnnamed(sha: string): Promise<void> {
    if (!this.#all().some((meta) => meta.sha === sha)) await this.#store.blobs.remove(sha);
  }
}
