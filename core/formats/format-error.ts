/**
 * @module format-error
 * Raised by the file parsers (uploads and static specimens used as inputs) for bytes that are
 * not a well-formed file of their kind; the message says why in a reader's words. And by a
 * writer that cannot know its output's size before writing it (text), once the output passes
 * the bound it was given: it stops there rather than make the rest.
 */
import { firstNonFinite } from '../envelope/first-non-finite.ts';

export class FormatError extends Error {
  override name = 'FormatError';
}

export function fail(message: string): never {
  throw new FormatError(message);
}

/** Throws unless every value is a finite number (NaN or an infinity in a file is refused). */
export function expectFinite(values: ArrayLike<number>, what: string): void {
  const at = firstNonFinite(values);
  if (at >= 0) fail(`${what} holds a value that is not a finite number (index ${at})`);
}

/** A writer's output passed the bound it was given (`bytes`: how far it had got); nothing more was made. */
export class OutputTooLarge extends Error {
  override name = 'OutputTooLarge';
  constructor(readonly bytes: number) {
    super(`the output passed ${bytes} bytes`);
  }
}
