/**
 * @module decoded-size
 * What a file takes once decoded, and the refusal of one that would take more than the limit.
 * A compressed image, a face list that fans out, or a glTF node graph that repeats a mesh can
 * decode to many times the bytes that arrived, so a limit on the bytes received alone does
 * not bound the memory a parse commits; check-decoded-size.ts counts each kind before it is
 * decoded. Callers answer a DecodedSizeError as "too large", not "malformed".
 */
/** Decoded bytes and how they were counted, in a reader's words. */
export interface DecodedSize {
  bytes: number;
  what: string;
}

/** `n word`, or `n words`: how refusals and messages count things. */
export function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

/** A file that would decode past the limit; nothing of it was decoded. */
export class DecodedSizeError extends Error {
  override name = 'DecodedSizeError';
  constructor(readonly size: DecodedSize, readonly limit: number) {
    super(`it would decode to ${size.bytes} bytes (${size.what}), past the ${limit}-byte limit`);
  }
}
