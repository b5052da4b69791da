/**
 * @module result-id
 * A result's id: the sha256 (hex) of its frame, the header JSON followed by its array bytes
 * (result-frame.ts). The same result has the same id on every host, and it is
 * the key a Redis service stores the result's bytes under, so one definition serves both.
 * An id, once known, is remembered with the result object for as long as the object lives.
 */
import { createHash } from 'node:crypto';
import { encodeResultFrame, type ResultHeader } from './result-frame.ts';
import type { StoredResult } from './stored-result.ts';

const known = new WeakMap<StoredResult, string>();

/** The content hash of a frame: what every result id and blob key is. */
export function hashFrame(header: ResultHeader, blocks: readonly Uint8Array[]): string {
  const sha = createHash('sha256').update(JSON.stringify(header));
  for (const block of blocks) sha.update(block);
  return sha.digest('hex');
}

/** Hashes `result` here and now (the encode thread runs this for large results). */
export function computeResultId(result: StoredResult): string {
  const { header, blocks } = encodeResultFrame(result);
  return hashFrame(header, blocks);
}

/** Records the id of a result whose hash is already known (e.g. read back by content hash). */
export function rememberResultId(result: StoredResult, id: string): void {
  known.set(result, id);
}

/** The id of `result` when it has been worked out before. */
export function knownResultId(result: StoredResult): string | undefined {
  return known.get(result);
}

/** Whether `text` has the shape of a result id (64 lowercase hex digits). */
export function isResultId(text: string): boolean {
  return /^[0-9a-f]{64}$/.test(text);
}
