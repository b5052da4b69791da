/**
 * @module s3-blob-store
 * Result bytes in an S3-compatible object store (`--blob-store s3://BUCKET[/PREFIX]`): one
 * object per result, keyed by its content hash, so an object is never rewritten and a reader
 * can never see two results' bytes mixed. An object is the result's frame: four bytes giving
 * the length of the header JSON, the header, then the array bytes; it is read back from its
 * key alone. Large results go up as a multipart upload (lib-storage), parts in parallel.
 * Objects do not expire on their own: the bucket's lifecycle rules decide how long they stay;
 * a missing object reads as a miss (computed again). Copies read or written here are held in
 * memory in the host's byte budget for as long as its own entries would be, so hits on one
 * host do not go back to the store.
 *
 * A store that fails (unreachable, refusing, a transfer broken off or stalled) is the 503
 * SPC_ERR_BLOB_STORE_UNAVAILABLE, never a hang or a short body: every request gets its answer
 * within the stall time (`--s3-timeout`, {@link STALL_MS} by default; retries included), and a
 * read must deliver exactly the bytes its header announces, with no silence longer than that
 * between them. Its failures (and a probe,
 * once a host asks) say whether the host is ready (store-health.ts).
 */
import { GetObjectCommand, HeadObjectCommand, type S3Client } from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import { Readable } from 'node:stream';
import type { ResultBudget } from '../cache/result-budget.ts';
import { bytesOf } from '../envelope/bytes-of.ts';
import { encodePreamble } from '../envelope/preamble.ts';
import { createHostError, isHostError } from '../errors.ts';
import { checkResultHeader } from '../results/result-frame.ts';
import type { StoredResult } from '../results/stored-result.ts';
import { blobResult, frameOf, type BlobMeta, type BlobRef, type BlobStore, type OpenedBlob, type PutBlob } from './blob-store.ts';
import { LocalBlobCopies } from './local-blob-copies.ts';
import { StoreHealth } from './store-health.ts';
import type { S3Location } from './s3-url.ts';

/** Multipart part size and how many parts go up at once. */
const PART_BYTES = 8 * 1024 * 1024;
const PARTS_AT_ONCE = 4;
/** Longest a request waits for its answer, and longest silence in the middle of a transfer, ms (the default). */
const STALL_MS = 10_000;
/** Longest the readiness probe waits for its answer, ms (less when the stall time is shorter). */
const PROBE_MS = 3000;

/** The store's failure as the host's 503, in words fit for a client (no keys, no secrets). */
export function blobStoreUnavailable(error: unknown): Error {
  if (isHostError(error)) return error;
  const e = error as { name?: string; code?: string; $metadata?: { httpStatusCode?: number } };
  const status = e.$metadata?.httpStatusCode;
  const why = status
    ? `it answered ${status}${e.name ? ` (${e.name})` : ''}`
    : e.code
      ? `it cannot be reached (${e.code})`
      : `the transfer failed (${e.name ?? 'error'})`;
  return createHostError('SPC_ERR_BLOB_STORE_UNAVAILABLE', why);
}

function isMissing(error: unknown): boolean {
  const e = error as { name?: string; $metadata?: { httpStatusCode?: number } };
  return e.name === 'NoSuchKey' || e.name === 'NotFound' || e.$metadata?.httpStatusCode === 404;
}

/** An object's body as the SDK hands it over: chunks, and a way to break it off. */
type ObjectBody = AsyncIterable<Uint8Array> & { destroy(error?: Error): void };

/** Reads `body` into exactly `bytes.byteLength` bytes after a prefix already taken; throws on anything else. */
async function readExactly(body: ObjectBody, first: Buffer, bytes: Uint8Array, stallMs: number): Promise<void> {
  let offset = 0;
  const put = (chunk: Uint8Array): void => {
    if (offset + chunk.byteLength > bytes.byteLength) throw new Error('the object is longer than its header says');
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  };
  put(first);
  let timer: NodeJS.Timeout | undefined;
  const arm = (): void => {
    clearTimeout(timer);
    timer = setTimeout(() => body.destroy(new Error('the transfer stalled')), stallMs);
  };
  arm();
  try {
    for await (const chunk of body) {
      arm();
      put(chunk);
    }
  } finally {
    clearTimeout(timer);
  }
  if (offset !== bytes.byteLength) throw new Error('the object is shorter than its header says');
}

/** Splits the first chunks of a body into the header and what follows it. */
async function readHead(iterator: AsyncIterator<Uint8Array>): Promise<{ meta: BlobMeta; rest: Buffer }> {
  let head = Buffer.alloc(0);
  for (;;) {
    if (head.byteLength >= 4) {
      const length = head.readUInt32LE(0);
      if (head.byteLength >= 4 + length) {
        const header = checkResultHeader(JSON.parse(head.subarray(4, 4 + length).toString('utf8')));
        return { meta: { header, chunkBytes: header.byteLength, chunks: header.byteLength > 0 ? 1 : 0 }, rest: head.subarray(4 + length) };
      }
    }
    const next = await iterator.next();
    if (next.done) throw new Error('the object ends inside its header');
    head = Buffer.concat([head, next.value]);
  }
}

export class S3BlobStore implements BlobStore {
  #client: S3Client;
  #location: S3Location;
  #keepMs: number;
  #stallMs: number;
  #local: LocalBlobCopies;
  #health: StoreHealth;

  /**
   * @param budget where copies in memory are held; null keeps none (a worker process)
   * @param keepMs longest a copy stays in memory (the host's own entries' longest life)
   * @param stallMs longest wait for an answer, and longest silence within a transfer
   */
  constructor(client: S3Client, location: S3Location, budget: ResultBudget<StoredResult> | null, keepMs = Number.POSITIVE_INFINITY, stallMs = STALL_MS) {
    this.#client = client;
    this.#location = location;
    this.#keepMs = keepMs;
    this.#stallMs = stallMs;
    this.#local = new LocalBlobCopies(budget, keepMs);
    this.#health = new StoreHealth(`the object store at bucket ${location.bucket}`, async () => {
      // A key that is never written: "not found" is an answer.
      const probe = new HeadObjectCommand({ Bucket: location.bucket, Key: `${location.prefix}.vitrine-readiness` });
      await this.#send((abortSignal) => this.#client.send(probe, { abortSignal }), Math.min(PROBE_MS, stallMs)).catch((error: unknown) => {
        if (!isMissing(error)) throw error;
      });
    });
  }

  notReady(): string | null {
    return this.#health.notReady();
  }

  /**
   * Sends one request, aborting it past `ms` without an answer (the SDK's retries included);
   * its failure is remembered for /readyz, its answer (a miss too) clears that.
   */
  async #send<T>(request: (abortSignal: AbortSignal) => Promise<T>, ms = this.#stallMs, abort = new AbortController()): Promise<T> {
    const timer = setTimeout(() => abort.abort(new Error(`no answer within ${ms / 1000} s`)), ms);
    try {
      const answer = await request(abort.signal);
      this.#health.answered();
      return answer;
    } catch (error) {
      if (isMissing(error)) {
        this.#health.answered();
        throw error;
      }
      const failure =
        abort.signal.aborted && !isHostError(error)
          ? createHostError('SPC_ERR_BLOB_STORE_UNAVAILABLE', `it did not answer within ${ms / 1000} s`)
          : blobStoreUnavailable(error);
      this.#health.failed(failure.message);
      throw failure;
    } finally {
      clearTimeout(timer);
    }
  }

  /** The object key of content hash `hash`. */
  keyOf(hash: string): string {
    return `${this.#location.prefix}${hash}`;
  }

  holds(hash: string): boolean {
    return this.#local.holds(hash);
  }

  async #exists(hash: string): Promise<boolean> {
    try {
      const head = new HeadObjectCommand({ Bucket: this.#location.bucket, Key: this.keyOf(hash) });
      await this.#send((abortSignal) => this.#client.send(head, { abortSignal }));
      return true;
    } catch (error) {
      if (isMissing(error)) return false;
      throw error;
    }
  }

  async put(result: StoredResult, ttlMs: number): Promise<PutBlob> {
    const { header, blocks, hash } = frameOf(result);
    const meta: BlobMeta = { header, chunkBytes: header.byteLength, chunks: header.byteLength > 0 ? 1 : 0 };
    // Content-addressed: an object already there holds these very bytes.
    if (!(await this.#exists(hash))) {
      // The frame's first bytes, the header JSON's length and then the header, are an envelope's preamble.
      const parts = [encodePreamble(meta.header), ...blocks.map(bytesOf)];
      const upload = new Upload({
        client: this.#client,
        params: { Bucket: this.#location.bucket, Key: this.keyOf(hash), Body: Readable.from(parts), ContentType: 'application/octet-stream' },
        partSize: PART_BYTES,
        queueSize: PARTS_AT_ONCE,
        leavePartsOnError: false,
      });
      // A transfer with no progress for the stall time is given up (the parts go with it).
      let stalled = false;
      let timer = setTimeout(() => ((stalled = true), void upload.abort()), this.#stallMs);
      upload.on('httpUploadProgress', () => {
        clearTimeout(timer);
        timer = setTimeout(() => ((stalled = true), void upload.abort()), this.#stallMs);
      });
      try {
        await upload.done();
        this.#health.answered();
      } catch (error) {
        const failure = stalled
          ? createHostError('SPC_ERR_BLOB_STORE_UNAVAILABLE', `the upload made no progress for ${this.#stallMs / 1000} s`)
          : blobStoreUnavailable(error);
        this.#health.failed(failure.message);
        throw failure;
      } finally {
        clearTimeout(timer);
      }
    }
    this.#local.keep(hash, result, ttlMs);
    return { hash, meta: JSON.stringify(meta), stored: true };
  }

  get(ref: BlobRef): Promise<StoredResult | null> {
    return this.find(ref.hash);
  }

  find(hash: string): Promise<StoredResult | null> {
    return this.#local.useOrRead(hash, () => this.#read(hash));
  }

  async #read(hash: string): Promise<StoredResult | null> {
    const abort = new AbortController();
    let body: ObjectBody | undefined;
    try {
      const get = new GetObjectCommand({ Bucket: this.#location.bucket, Key: this.keyOf(hash) });
      const answer = await this.#send((abortSignal) => this.#client.send(get, { abortSignal }), this.#stallMs, abort);
      body = answer.Body as unknown as ObjectBody;
      const iterator = body[Symbol.asyncIterator]();
      // The header's bytes too must come within the stall time.
      const stall = setTimeout(() => body!.destroy(new Error('the transfer stalled')), this.#stallMs);
      const { meta, rest } = await readHead(iterator).finally(() => clearTimeout(stall));
      const payload = new SharedArrayBuffer(meta.header.byteLength);
      const remaining = { [Symbol.asyncIterator]: () => iterator, destroy: (error?: Error) => body!.destroy(error) };
      await readExactly(remaining, rest, new Uint8Array(payload), this.#stallMs);
      const result = blobResult(meta.header, payload, hash);
      this.#local.keep(hash, result, this.#keepMs);
      return result;
    } catch (error) {
      abort.abort();
      body?.destroy();
      if (isMissing(error)) return null;
      const failure = blobStoreUnavailable(error);
      this.#health.failed(failure.message);
      throw failure;
    }
  }

  async touch(ref: BlobRef, ttlMs: number): Promise<boolean> {
    this.#local.extend(ref.hash, ttlMs);
    return this.#exists(ref.hash);
  }

  async open(ref: BlobRef): Promise<OpenedBlob | null> {
    const result = await this.get(ref);
    return result ? { result, arriving: null } : null;
  }

  dropLocal(): void {
    this.#local.dropAll();
  }

  close(): void {
    this.#health.close();
    this.#local.close();
    this.#client.destroy();
  }
}
