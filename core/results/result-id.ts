/**
 * @module result-id
 * A result's id: the sha256 (hex) of its frame, the header JSON followed by its array bytes
 * (result-frame.ts). The same result has the same id on every host, and it is
 * the key a Redis service stores the result's bytes under, so one definition serves both.
 * An id, once known, is remembered with the result object for as long as the object lives.
 * An edited labels layer's version is named otherwise, from its base's id and the chunks that
 * differ from it (edits/version-name.ts): such a name answers as the result's id, while stores
 * that check bytes against their name still hash the frame itself.
 */
import { createHash } from 'node:crypto';
import { encodeResultFrame, type ResultHeader } from './result-frame.ts';
import type { StoredResult } from './stored-result.ts';

const known = new WeakMap<StoredResult, string>();
/** Results whose id is a name given them, not their frame's hash: their frame's hash once known. */
const named = new WeakMap<StoredResult, string | undefined>();

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

/** Records the frame hash of a result, known already (e.g. read back by content hash): its id, unless it was named. */
export function rememberResultId(result: StoredResult, id: string): void {
  // A named result keeps its name: its frame's hash is kept beside it, never taken for its id.
  if (named.has(result)) named.set(result, id);
  else known.set(result, id);
}

/** Gives `result` the id `id`, which is not its frame's hash (an edited labels version's). */
export function nameResult(result: StoredResult, id: string): void {
  // A frame hash worked out before is kept as such.
  named.set(result, named.has(result) ? named.get(result) : known.get(result));
  known.set(result, id);
}

/** The hash of `result`'s frame when it is known: its id, unless that id is a name given it. */
export function knownFrameHash(result: StoredResult): string | undefined {
  return named.has(result) ? named.get(result) : known.get(result);
}

/** The id of `result` when it has been worked out before. */
export function knownResultId(result: StoredResult): string | undefined {
  return known.get(result);
}

/** Whether `text` has the shape of a result id (64 lowercase hex digits). */
export function isResultId(text: string): boolean {
  return /^[0-9a-f]{64}$/.test(text);
}
