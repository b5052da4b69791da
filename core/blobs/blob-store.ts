/**
 * @module blob-store
 * Where a Redis service keeps result bytes: content-addressed blobs, written once by the
 * compute node that made the result and read by any host. Implementations beside this
 * interface: RedisBlobStore (chunks in Redis, a memory copy in front), S3BlobStore (one object
 * per result in an S3-compatible store) and MemoryBlobStore (one process's memory, which keeps
 * the interface honest); `open-blob-store.ts` chooses one, and every one runs the same cases
 * (test/conformance/blob-store-cases.ts). Everything that reads or writes blobs (computations,
 * compute nodes, uploads) takes this interface. A `BlobRef` is small: it travels in room
 * pointers and job records. A store may lose a blob at any time (expiry, eviction): a reader
 * treats that as a miss, never as a fault.
 */
import { bytesOf } from '../envelope/bytes-of.ts';
import { decodeResultFrame, encodeResultFrame, type ResultHeader } from '../results/result-frame.ts';
import { hashFrame, knownFrameHash, rememberResultId } from '../results/result-id.ts';
import type { ArrivingResult } from '../results/payload-fill.ts';
import type { FileResult } from '../results/file-result.ts';
import type { StoredResult } from '../results/stored-result.ts';

export interface BlobRef {
  /** sha256 of the header and bytes, hex: the result's id (results/result-id.ts). */
  hash: string;
  /** JSON of {@link BlobMeta}: everything needed to read the bytes back. */
  meta: string;
}

/** What `put` made of a result. */
export interface PutBlob extends BlobRef {
  /**
   * False when the store refused the bytes (it is out of memory): none of them are left in it,
   * and only the process that computed the result may still hold it in memory.
   */
  stored: boolean;
}

export interface BlobMeta {
  header: ResultHeader;
  /** Bytes per chunk (the last may be shorter). */
  chunkBytes: number;
  chunks: number;
}

/** A result opened for sending: whole (`arriving` null), or with its bytes still arriving. */
export interface OpenedBlob {
  result: StoredResult;
  arriving: ArrivingResult | null;
}

export interface BlobStore {
  /** Stores `result` (or finds it stored already) and keeps it at least `ttlMs`. */
  put(result: StoredResult, ttlMs: number): Promise<PutBlob>;
  /**
   * Stores a result whose bytes lie in a file (checked against its id already) without reading
   * it into memory, as `put` would keep it; a store that cannot leaves this out (its results are
   * read in and `put`).
   */
  putFile?(result: FileResult, ttlMs: number): Promise<PutBlob>;
  /** The result, or null when its bytes are gone (expired or evicted). */
  get(ref: BlobRef): Promise<StoredResult | null>;
  /** Keeps a stored blob at least `ttlMs` more (a job that will still be asked for it); false when it is gone. */
  touch(ref: BlobRef, ttlMs: number): Promise<boolean>;
  /** The result stored under content hash `hash` (its result id), or null when it is not stored. */
  find(hash: string): Promise<StoredResult | null>;
  /**
   * The result for sending at once, or null when its bytes are gone. A store may hand back a
   * result whose bytes are still arriving (`arriving` set), so a reply can send each part as it
   * comes; one that cannot gives the whole result.
   */
  open(ref: BlobRef): Promise<OpenedBlob | null>;
  /** Whether this process holds the blob's result in memory (it computed or read it). */
  holds(hash: string): boolean;
  /** Forgets what this process holds in memory in front of the store (cache clear). */
  dropLocal(): void;
  /** Null while the store answers, else why not (for `/readyz`); a store whose health its connection shows has none. */
  notReady?(): string | null;
  close(): void;
}

/**
 * A result's frame (blocks of bytes) and its content hash (remembered as its result id). A
 * result whose id was worked out before (off the event loop, for a large one) is not hashed again.
 */
export function frameOf(result: StoredResult): { header: ResultHeader; blocks: Uint8Array[]; hash: string } {
  const { header, blocks } = encodeResultFrame(result);
  const known = knownFrameHash(result);
  if (known) return { header, blocks, hash: known };
  const hash = hashFrame(header, blocks);
  rememberResultId(result, hash);
  return { header, blocks, hash };
}

/** The result of a blob read back, its payload in `payload`, with its id remembered: the blob's hash. */
export function blobResult(header: ResultHeader, payload: SharedArrayBuffer, hash: string): StoredResult {
  const result = decodeResultFrame(header, payload as unknown as ArrayBuffer);
  rememberResultId(result, hash);
  return result;
}

/** Cuts `blocks` into buffers of `size` bytes (the last shorter), copying only across block edges. */
export function* chunksOf(blocks: Uint8Array[], size: number): Generator<Buffer> {
  let pending: Uint8Array[] = [];
  let pendingBytes = 0;
  const flush = (): Buffer => {
    const out = pending.length === 1 ? bytesOf(pending[0]!) : Buffer.concat(pending);
    pending = [];
    pendingBytes = 0;
    return out;
  };
  for (const block of blocks) {
    let offset = 0;
    while (offset < block.byteLength) {
      const take = Math.min(size - pendingBytes, block.byteLength - offset);
      pending.push(block.subarray(offset, offset + take));
      pendingBytes += take;
      offset += take;
      if (pendingBytes === size) yield flush();
    }
  }
  if (pendingBytes > 0) yield flush();
}
