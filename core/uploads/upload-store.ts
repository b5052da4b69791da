/**
 * @module upload-store
 * Where uploaded files live once parsed: by content id (the same bytes give the same id), for
 * a time-to-live refreshed by each new upload of them. Two implementations beside it: MemoryUploadStore
 * (one host; counted in the host's result budget) and RedisUploadStore (a Redis service: the
 * parsed result in the service's blob store, so every host reads it); both run the cases of
 * test/conformance/upload-store.test.ts.
 */
import { createHash, type Hash } from 'node:crypto';
import type { StoredResult } from '../results/stored-result.ts';
import type { ResultType } from '../sdk/result-types.ts';
import type { BlobRef } from '../blobs/blob-store.ts';

/** What a store keeps of an upload beside its bytes (a blob of its blob store): their ref, type and size. */
export type UploadRecord = BlobRef & Pick<UploadInfo, 'type' | 'bytes'>;

/** What `POST /api/uploads` answers. */
export interface UploadInfo {
  upload_id: string;
  type: ResultType;
  /** Bytes of the uploaded file. */
  bytes: number;
  /** Seconds until it is dropped. */
  expires_in: number;
}

export interface UploadStore {
  /** The stored upload's info with its time-to-live refreshed; null when it is not stored (or its bytes are lost). */
  refresh(id: string, bytes: number): Promise<UploadInfo | null>;
  /**
   * Stores a parsed upload (replacing what the id held: the same bytes parsed again). Null when
   * it cannot be kept (larger than the whole result budget); a shared store that refuses the
   * bytes (out of memory) fails with the 503 instead, and keeps nothing of them.
   */
  put(id: string, result: StoredResult, bytes: number): Promise<UploadInfo | null>;
  /**
   * The upload's result type, or null when unknown or expired. Cheap: a shared store may still
   * name the type of an upload whose bytes it lost; `get` and `refresh` have the last word.
   */
  typeOf(id: string): Promise<ResultType | null>;
  /** The parsed upload, or null when unknown or expired. */
  get(id: string): Promise<StoredResult | null>;
  close(): void;
}

/** What is said of upload `id` of `type`, `bytes` long, with `ms` left to live. */
export function uploadInfo(id: string, type: ResultType, bytes: number, ms: number): UploadInfo {
  return { upload_id: id, type, bytes, expires_in: Math.round(ms / 1000) };
}

/**
 * The hash an upload's id is made of, fed its extension (and what the request says of the
 * file beside its bytes, when it says anything) first and then its bytes.
 */
export function createUploadHash(extension: string, described = ''): Hash {
  const hash = createHash('sha256').update(extension).update('\u0000');
  return described === '' ? hash : hash.update(described).update('\u0000');
}

/** An upload's id: a hash of its bytes and its name's extension (one file, one id). */
export function uploadId(bytes: Uint8Array, extension: string): string {
  return createUploadHash(extension).update(bytes).digest('hex').slice(0, 32);
}
