/**
 * @module redis-blob-store
 * Result bytes in Redis as content-addressed chunks of 4 MiB (a single large value would
 * stall every other client of that Redis while it is written or read; 4 MiB chunks do not),
 * with a memory LRU in front, held in the host's byte budget: repeat readers on one host are
 * served from memory at in-memory speed, and a cold host reads the chunks once, pipelined,
 * straight into one shared buffer (concurrent readers of one blob share that read). A copy in
 * memory lives no longer than the blob in Redis nor than the host's own entries would, so a
 * host's memory falls back once the service's entries expire. The Redis may evict (any `maxmemory-policy`): a missing header or
 * chunk reads as a miss. A Redis out of memory that refuses a write keeps none of it: the
 * chunks already written are deleted, and the result stays only in this process's memory.
 */
import type { Redis } from 'ioredis';
import type { ResultBudget } from '../cache/result-budget.ts';
import { arrivingResult, PayloadFill } from '../results/payload-fill.ts';
import { checkResultHeader, decodeResultFrame } from '../results/result-frame.ts';
import type { StoredResult } from '../results/stored-result.ts';
import { LocalBlobCopies } from './local-blob-copies.ts';
import { blobResult, chunksOf, frameOf, type BlobMeta, type BlobRef, type BlobStore, type OpenedBlob, type PutBlob } from './blob-store.ts';
import { bulkReadInto, ChunkGoneError, type BulkReadTarget } from '../redis/redis-bulk-read.ts';
import { KEYS } from '../redis/redis-keys.ts';
import { isOutOfMemory } from '../redis/redis-unavailable.ts';
import { withTimeLimit } from '../redis/time-limit.ts';

/** Bytes per chunk. */
export const CHUNK_BYTES = 4 * 1024 * 1024;

/**
 * Longest a transfer of `bytes` may take: 2 s, plus the time at 8 MiB/s (a slow network), so
 * a Redis that stops answering mid-transfer fails the request instead of hanging it.
 */
function transferLimitMs(bytes: number): number {
  return 2000 + (bytes / (8 * 1024 * 1024)) * 1000;
}

async function execAll(pipeline: ReturnType<Redis['pipeline']>, bytes: number, what: string): Promise<unknown[]> {
  const replies = (await withTimeLimit(pipeline.exec(), transferLimitMs(bytes), what)) ?? [];
  return replies.map(([error, reply]) => {
    if (error) throw error;
    return reply;
  });
}

/** Whole reads from this size on go over a connection of their own (redis-bulk-read.ts). */
const BULK_READ_MIN_BYTES = 1024 * 1024;

/**
 * Where to read a blob's bytes on a connection of their own, straight into the result: a Redis
 * the client reaches directly, without TLS, Sentinel or key prefix. Null: read through the client.
 */
function directTarget(redis: Redis): BulkReadTarget | null {
  const { host, port, path, username, password, db, tls, keyPrefix, sentinels } = redis.options;
  return tls || keyPrefix || sentinels?.length ? null : { host, port, path, username, password, db };
}

/** The keys of a blob's chunks, in order. */
function chunkKeys(hash: string, meta: BlobMeta): string[] {
  return Array.from({ length: meta.chunks }, (_, i) => KEYS.blobChunk(hash, i));
}

export class RedisBlobStore implements BlobStore {
  #redis: Redis;
  /** Where large reads go on a connection of their own (null: through the client). */
  #direct: BulkReadTarget | null;
  #local: LocalBlobCopies;
  readonly #streamCold: boolean;

  /**
   * @param budget where copies in memory are held; null keeps none (a worker process)
   * @param keepMs longest a copy stays in memory: the host's own entries' longest life (its
   *   cache and job time-to-live), so its memory falls back once they are gone
   * @param streamCold whether a large result read cold may be sent as its chunks arrive. Only a
   *   store that never evicts can promise every chunk to the end of a reply; a Redis of its own
   *   for result bytes (`--blob-store`) may evict a chunk mid-reply, so there a result is read
   *   whole first, and a chunk gone is a miss that is computed again.
   */
  constructor(redis: Redis, budget: ResultBudget<StoredResult> | null, keepMs = Number.POSITIVE_INFINITY, streamCold = true) {
    this.#redis = redis;
    this.#direct = directTarget(redis);
    this.#streamCold = streamCold;
    // A compute node without a budget (a worker process) keeps nothing: hosts read results.
    this.#local = new LocalBlobCopies(budget, keepMs);
  }

  /** Whether this process holds the blob's result in memory. */
  holds(hash: string): boolean {
    return this.#local.holds(hash);
  }

  async put(result: StoredResult, ttlMs: number): Promise<PutBlob> {
    const { header, blocks, hash } = frameOf(result);
    const meta: BlobMeta = { header, chunkBytes: CHUNK_BYTES, chunks: Math.ceil(header.byteLength / CHUNK_BYTES) };
    const ref = { hash, meta: JSON.stringify(meta) };
    const ttl = Math.ceil(ttlMs);
    let stored = true;
    if (!(await this.touch(ref, ttlMs))) {
      const pipeline = this.#redis.pipeline();
      let index = 0;
      for (const chunk of chunksOf(blocks, CHUNK_BYTES)) pipeline.set(KEYS.blobChunk(hash, index++), chunk, 'PX', ttl);
      // The header goes last: a reader that finds it finds every chunk.
      pipeline.set(KEYS.blob(hash), ref.meta, 'PX', ttl);
      try {
        await execAll(pipeline, header.byteLength, 'writing a result to Redis');
      } catch (error) {
        if (!isOutOfMemory(error)) throw error;
        // Out of memory: what went in holds memory for nothing (and no reader may find half a
        // result), so it goes; deleting is allowed to a full Redis.
        stored = false;
        const drop = this.#redis.pipeline().del(KEYS.blob(hash));
        for (let i = 0; i < meta.chunks; i++) drop.del(KEYS.blobChunk(hash, i));
        await drop.exec().catch(() => null);
      }
    }
    this.#local.keep(hash, result, ttlMs);
    return { ...ref, stored };
  }

  get(ref: BlobRef): Promise<StoredResult | null> {
    return this.#local.useOrRead(ref.hash, () => this.#read(ref));
  }

  /**
   * The blob's result for sending at once: from memory, or, read cold, a result whose bytes
   * are still arriving from Redis chunk by chunk (a reply can send each as it comes). Null
   * when the header or a chunk is gone. Every chunk's presence is checked before anything is
   * promised; one evicted in the moment after would cut the reply short, which is why a store
   * that may evict reads whole instead (streamCold).
   */
  async open(ref: BlobRef): Promise<OpenedBlob | null> {
    // In memory (the usual hit), small or already on its way: nothing gained by following the chunks.
    const held = !this.#streamCold || this.#local.alive(ref.hash) || this.#local.reading(ref.hash);
    const meta = held ? null : (JSON.parse(ref.meta) as BlobMeta);
    if (meta === null || meta.chunks < 2) {
      const result = await this.get(ref);
      return result ? { result, arriving: null } : null;
    }
    const header = checkResultHeader(meta.header);
    const check = this.#redis.pipeline().pttl(KEYS.blob(ref.hash));
    for (let i = 0; i < meta.chunks; i++) check.exists(KEYS.blobChunk(ref.hash, i));
    const [life, ...present] = await execAll(check, 0, 'reading a result from Redis');
    if (typeof life !== 'number' || life === -2 || present.some((n) => n !== 1)) return null;
    const fill = new PayloadFill(header.byteLength, new SharedArrayBuffer(header.byteLength));
    const result = decodeResultFrame(header, fill.bytes.buffer as ArrayBuffer);
    const reading = this.#follow(ref.hash, meta, fill).then(
      () => (this.#local.keep(ref.hash, result, life), result),
      (error: Error) => (fill.fail(error), null),
    );
    // Those who ask for the blob while it arrives share this read.
    void this.#local.useOrRead(ref.hash, () => reading);
    return { result, arriving: arrivingResult(result, fill) };
  }

  /** Writes the blob's chunks into `fill` in order, each as its reply comes. */
  async #follow(hash: string, meta: BlobMeta, fill: PayloadFill): Promise<void> {
    const direct = this.#direct;
    if (direct) return bulkReadInto(direct, chunkKeys(hash, meta), fill, transferLimitMs(fill.bytes.byteLength));
    // Every GET is sent at once (one pipelined write); replies come back in order.
    const replies = Array.from({ length: meta.chunks }, (_, i) => this.#redis.getBuffer(KEYS.blobChunk(hash, i)));
    for (const reply of replies) reply.catch(() => {});
    const all = (async () => {
      for (const [i, reply] of replies.entries()) {
        const chunk = await reply;
        if (!chunk) throw new Error(`a chunk of the result is gone from Redis (${i + 1} of ${meta.chunks})`);
        fill.write(chunk);
      }
      if (!fill.complete) throw new Error('the result in Redis is shorter than its header says');
    })();
    await withTimeLimit(all, transferLimitMs(fill.bytes.byteLength), 'reading a result from Redis');
  }

  async #read(ref: BlobRef): Promise<StoredResult | null> {
    const meta = JSON.parse(ref.meta) as BlobMeta;
    const header = checkResultHeader(meta.header);
    const payload = new SharedArrayBuffer(header.byteLength);
    const life = await this.#readInto(ref.hash, meta, payload);
    // The header or a chunk gone (expired, or evicted by Redis's maxmemory policy): a miss.
    if (life === null) return null;
    const result = blobResult(header, payload, ref.hash);
    this.#local.keep(ref.hash, result, life);
    return result;
  }

  /**
   * Reads every chunk of the blob into `payload`; resolves with the blob's remaining life (ms),
   * or null when its header or a chunk is gone.
   */
  async #readInto(hash: string, meta: BlobMeta, payload: SharedArrayBuffer): Promise<number | null> {
    // A connection of its own pays off for large blobs only; small ones ride the client's.
    const direct = payload.byteLength >= BULK_READ_MIN_BYTES ? this.#direct : null;
    if (direct) {
      const fill = new PayloadFill(payload.byteLength, payload);
      const [life, whole] = await Promise.all([
        withTimeLimit(this.#redis.pttl(KEYS.blob(hash)), transferLimitMs(0), 'reading a result from Redis'),
        bulkReadInto(direct, chunkKeys(hash, meta), fill, transferLimitMs(payload.byteLength)).then(
          () => true,
          (error: Error) => {
            if (error instanceof ChunkGoneError) return false;
            throw error;
          },
        ),
      ]);
      return life === -2 || !whole ? null : life;
    }
    const pipeline = this.#redis.pipeline().pttl(KEYS.blob(hash));
    for (let i = 0; i < meta.chunks; i++) pipeline.getBuffer(KEYS.blobChunk(hash, i));
    const [life, ...chunks] = await execAll(pipeline, payload.byteLength, 'reading a result from Redis');
    if (typeof life !== 'number' || life === -2 || chunks.some((chunk) => !chunk)) return null;
    const bytes = new Uint8Array(payload);
    chunks.forEach((chunk, i) => bytes.set(chunk as Buffer, i * meta.chunkBytes));
    return life;
  }

  async touch(ref: BlobRef, ttlMs: number): Promise<boolean> {
    const meta = JSON.parse(ref.meta) as BlobMeta;
    const ttl = Math.ceil(ttlMs);
    // Whole only with every chunk: one evicted alone leaves a header that reads as a miss.
    const keys = chunkKeys(ref.hash, meta);
    const pipeline = this.#redis.pipeline().exists(KEYS.blob(ref.hash), ...keys);
    // Only ever lengthens: PEXPIRE GT keeps a longer life another holder asked for.
    pipeline.pexpire(KEYS.blob(ref.hash), ttl, 'GT');
    for (let i = 0; i < meta.chunks; i++) pipeline.pexpire(KEYS.blobChunk(ref.hash, i), ttl, 'GT');
    const [exists] = await execAll(pipeline, 0, 'keeping a result in Redis');
    const whole = exists === meta.chunks + 1;
    if (whole) this.#local.extend(ref.hash, ttlMs);
    return whole;
  }

  async find(hash: string): Promise<StoredResult | null> {
    if (this.#local.holds(hash)) return this.get({ hash, meta: '' });
    const meta = await withTimeLimit(this.#redis.get(KEYS.blob(hash)), transferLimitMs(0), 'reading a result from Redis');
    return meta ? this.get({ hash, meta }) : null;
  }

  /** Forgets every result held in memory (cache clear). */
  dropLocal(): void {
    this.#local.dropAll();
  }

  close(): void {
    this.#local.close();
  }
}
