/**
 * @module rethrown
 * A refusal of one kind answered as another: what a reader of fields or a file throws of its
 * own kind becomes the caller's error (a bad result, a catalogued 400); any other is thrown as
 * it is.
 */

/** What `read` answers; an error of class `Kind` it throws is thrown as `as(error)` instead. */
export function rethrown<T, E extends Error>(read: () => T, Kind: new (...args: never[]) => E, as: (error: E) => unknown): T {
  try {
    return read();
  } catch (error) {
    if (error instanceof Kind) throw as(error);
    throw error;
  }
}
