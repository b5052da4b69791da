/**
 * @module redis-upload-store
 * Uploads on a Redis service: the parsed result lives in the service's blob store (content
 * addressed, like computed results) and a small record names it, so an upload made on one
 * host is an input on every host. Both expire after the upload time-to-live. No record points
 * at bytes Redis refused (out of memory); a refresh that finds the bytes gone (evicted) answers
 * that the upload is not stored, so it is parsed again and its put replaces the record.
 */
import type { Redis } from 'ioredis';
import type { StoredResult } from '../results/stored-result.ts';
import type { ResultType } from '../sdk/result-types.ts';
import { uploadInfo, type UploadInfo, type UploadRecord, type UploadStore } from './upload-store.ts';
import type { BlobStore } from '../blobs/blob-store.ts';
import { createHostError } from '../errors.ts';
import { KEYS } from '../redis/redis-keys.ts';
import { orUnavailable, OUT_OF_MEMORY } from '../redis/redis-unavailable.ts';

export class RedisUploadStore implements UploadStore {
  #redis: Redis;
  #blobs: BlobStore;
  #ttlMs: number;

  constructor(redis: Redis, blobs: BlobStore, ttlSeconds: number) {
    this.#redis = redis;
    this.#blobs = blobs;
    this.#ttlMs = ttlSeconds * 1000;
  }

  async #record(id: string): Promise<UploadRecord | null> {
    const raw = await orUnavailable(this.#redis.get(KEYS.upload(id)));
    return raw ? (JSON.parse(raw) as UploadRecord) : null;
  }

  async refresh(id: string): Promise<UploadInfo | null> {
    const record = await this.#record(id);
    if (!record) return null;
    // Bytes gone (evicted): not stored, so the host parses the upload again and its put
    // replaces the record (deleting it here could delete another host's fresh put of it).
    if (!(await orUnavailable(this.#blobs.touch(record, this.#ttlMs)))) return null;
    await orUnavailable(this.#redis.pexpire(KEYS.upload(id), this.#ttlMs));
    return uploadInfo(id, record.type, record.bytes, this.#ttlMs);
  }

  async put(id: string, result: StoredResult, bytes: number): Promise<UploadInfo> {
    const { stored, ...ref } = await orUnavailable(this.#blobs.put(result, this.#ttlMs));
    // Other hosts could not read refused bytes: no record points at them.
    if (!stored) throw createHostError('SPC_ERR_REDIS_UNAVAILABLE', OUT_OF_MEMORY);
    const record: UploadRecord = { ...ref, type: result.type, bytes };
    await orUnavailable(this.#redis.set(KEYS.upload(id), JSON.stringify(record), 'PX', this.#ttlMs));
    return uploadInfo(id, record.type, record.bytes, this.#ttlMs);
  }

  async typeOf(id: string): Promise<ResultType | null> {
    return (await this.#record(id))?.type ?? null;
  }

  async get(id: string): Promise<StoredResult | null> {
    const record = await this.#record(id);
    return record ? orUnavailable(this.#blobs.get(record)) : null;
  }

  close(): void {}
}
