/**
 * @module redis-blob-store
 * Result bytes in Redis as content-addressed chunks of 4 MiB (a single large value would
 * stall every other client of that Redis while it is written or read; 4 MiB chunks do not),
 * with a memory LRU in front, held in the host's byte budget: repeat readers on one host are
 * served from memory at in-memory speed, and a cold host reads the chunks once, pipelined,
 * straight into one shared buffer (concurrent readers of one blob share that read).
 */
import type { Redis } from 'ioredis';
import type { ResultBudget } from '../cache/result-budget.ts';
import { checkResultHeader, decodeResultFrame } from '../federation/result-frame.ts';
import { rememberResultId } from '../results/result-id.ts';
import type { StoredResult } from '../results/stored-result.ts';
import { chunksOf, frameOf, type BlobMeta, type BlobRef, type BlobStore } from './blob-store.ts';
import { KEYS } from './redis-keys.ts';
import { withTimeLimit } from './time-limit.ts';

/** Bytes per chunk. */
export const CHUNK_BYTES = 4 * 1024 * 1024;

/**
 * Longest a transfer of `bytes` may take: 2 s, plus the time at 8 MiB/s (a slow network), so
 * a Redis that stops answering mid-transfer fails the request instead of hanging it.
 */
function transferLimitMs(bytes: number): number {
  return 2000 + (bytes / (8 * 1024 * 1024)) * 1000;
}

export class RedisBlobStore implements BlobStore {
  #redis: Redis;
  #budget: ResultBudget<StoredResult> | null;
  #local = new Map<string, StoredResult>();
  #reading = new Map<string, Promise<StoredResult | null>>();

  constructor(redis: Redis, budget: ResultBudget<StoredResult> | null) {
    this.#redis = redis;
    this.#budget = budget;
  }

  #keep(hash: string, result: StoredResult): void {
    // A compute node without a budget (a worker process) keeps nothing: hosts read results.
    if (!this.#budget || this.#local.has(hash)) return;
    this.#local.set(hash, result);
    this.#budget.hold(result, `blob:${hash}`, () => this.#local.delete(hash));
  }

  async put(result: StoredResult, ttlMs: number): Promise<BlobRef> {
    const { header, blocks, hash } = frameOf(result);
    const meta: BlobMeta = { header, chunkBytes: CHUNK_BYTES, chunks: Math.ceil(header.byteLength / CHUNK_BYTES) };
    const ref = { hash, meta: JSON.stringify(meta) };
    const ttl = Math.ceil(ttlMs);
    if ((await this.#redis.exists(KEYS.blob(hash))) === 1) {
      await this.touch(ref, ttlMs);
    } else {
      const pipeline = this.#redis.pipeline();
      let index = 0;
      for (const chunk of chunksOf(blocks, CHUNK_BYTES)) pipeline.set(KEYS.blobChunk(hash, index++), chunk, 'PX', ttl);
      // The header goes last: a reader that finds it finds every chunk.
      pipeline.set(KEYS.blob(hash), ref.meta, 'PX', ttl);
      for (const [error] of (await withTimeLimit(pipeline.exec(), transferLimitMs(header.byteLength), 'writing a result to Redis')) ?? []) if (error) throw error;
    }
    this.#keep(hash, result);
    return ref;
  }

  get(ref: BlobRef): Promise<StoredResult | null> {
    const local = this.#local.get(ref.hash);
    if (local) {
      this.#budget?.touch(local);
      return Promise.resolve(local);
    }
    let reading = this.#reading.get(ref.hash);
    if (!reading) {
      reading = this.#read(ref).finally(() => this.#reading.delete(ref.hash));
      this.#reading.set(ref.hash, reading);
    }
    return reading;
  }

  async #read(ref: BlobRef): Promise<StoredResult | null> {
    const meta = JSON.parse(ref.meta) as BlobMeta;
    const header = checkResultHeader(meta.header);
    const payload = new SharedArrayBuffer(header.byteLength);
    const bytes = new Uint8Array(payload);
    const pipeline = this.#redis.pipeline();
    for (let i = 0; i < meta.chunks; i++) pipeline.getBuffer(KEYS.blobChunk(ref.hash, i));
    const replies = (await withTimeLimit(pipeline.exec(), transferLimitMs(header.byteLength), 'reading a result from Redis')) ?? [];
    for (const [i, [error, chunk]] of replies.entries()) {
      if (error) throw error;
      // A chunk gone (expired, or evicted by Redis's maxmemory policy): the result is gone.
      if (!chunk) return null;
      bytes.set(chunk as Buffer, i * meta.chunkBytes);
    }
    const result = decodeResultFrame(header, payload as unknown as ArrayBuffer);
    rememberResultId(result, ref.hash);
    this.#keep(ref.hash, result);
    return result;
  }

  async touch(ref: BlobRef, ttlMs: number): Promise<void> {
    const meta = JSON.parse(ref.meta) as BlobMeta;
    const ttl = Math.ceil(ttlMs);
    const pipeline = this.#redis.pipeline();
    // Only ever lengthens: PEXPIRE GT keeps a longer life another holder asked for.
    pipeline.pexpire(KEYS.blob(ref.hash), ttl, 'GT');
    for (let i = 0; i < meta.chunks; i++) pipeline.pexpire(KEYS.blobChunk(ref.hash, i), ttl, 'GT');
    for (const [error] of (await pipeline.exec()) ?? []) if (error) throw error;
  }

  async find(hash: string): Promise<StoredResult | null> {
    const local = this.#local.get(hash);
    if (local) return this.get({ hash, meta: '' });
    const meta = await withTimeLimit(this.#redis.get(KEYS.blob(hash)), transferLimitMs(0), 'reading a result from Redis');
    return meta ? this.get({ hash, meta }) : null;
  }

  /** Forgets every result held in memory (cache clear). */
  dropLocal(): void {
    for (const [hash, result] of this.#local) this.#budget?.release(result, `blob:${hash}`);
    this.#local.clear();
  }
}
