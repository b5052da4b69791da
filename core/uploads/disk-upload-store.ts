/**
 * @module disk-upload-store
 * Uploads on a lone host with a data folder: the parsed result a blob of the folder's
 * DiskBlobStore (written whole first) and a small record in the `uploads` database naming it,
 * both for the upload time-to-live, so an upload is still an input after a restart.
 */
import type { BlobStore } from '../blobs/blob-store.ts';
import type { DataStore } from '../durable/data-store.ts';
import { DISK } from '../durable/disk-keys.ts';
import type { StoredResult } from '../results/stored-result.ts';
import type { ResultType } from '../sdk/result-types.ts';
import { uploadInfo, type UploadInfo, type UploadRecord, type UploadStore } from './upload-store.ts';

type DiskUploadRecord = UploadRecord & { expiresAt: number };

export class DiskUploadStore implements UploadStore {
  #store: DataStore;
  #blobs: BlobStore;
  #ttlMs: number;
  #now: () => number;

  /** @param now the clock time-to-lives are measured on (milliseconds) */
  constructor(store: DataStore, blobs: BlobStore, ttlSeconds: number, now: () => number = Date.now) {
    this.#store = store;
    this.#blobs = blobs;
    this.#ttlMs = ttlSeconds * 1000;
    this.#now = now;
  }

  get #db() {
    return this.#store.db<DiskUploadRecord>(DISK.uploads.name);
  }

  #record(id: string): DiskUploadRecord | null {
    const record = this.#db.get(id);
    return record && record.expiresAt > this.#now() ? record : null;
  }

  async refresh(id: string): Promise<UploadInfo | null> {
    const record = this.#record(id);
    if (!record || !(await this.#blobs.touch(record, this.#ttlMs))) return null;
    const renewed = { ...record, expiresAt: this.#now() + this.#ttlMs };
    await this.#store.write(() => this.#db.put(id, renewed));
    return uploadInfo(id, renewed.type, renewed.bytes, this.#ttlMs);
  }

  async put(id: string, result: StoredResult, bytes: number): Promise<UploadInfo> {
    const { hash, meta } = await this.#blobs.put(result, this.#ttlMs);
    const record: DiskUploadRecord = { hash, meta, type: result.type, bytes, expiresAt: this.#now() + this.#ttlMs };
    await this.#store.write(() => this.#db.put(id, record));
    return uploadInfo(id, record.type, bytes, this.#ttlMs);
  }

  async typeOf(id: string): Promise<ResultType | null> {
    return this.#record(id)?.type ?? null;
  }

  async get(id: string): Promise<StoredResult | null> {
    const record = this.#record(id);
    return record ? this.#blobs.get(record) : null;
  }

  close(): void {}
}
