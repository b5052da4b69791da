/**
 * @module byte-range
 * Parses a single-range `Range: bytes=...` header (RFC 9110 §14) against a file size, so a
 * static data file can be fetched in parts (resumed downloads, seeking viewers). Multi-range
 * requests are answered with the whole file, as the RFC allows.
 */

export type RangeResult =
  | { kind: 'none' }
  | { kind: 'range'; start: number; end: number }
  | { kind: 'unsatisfiable' };

/**
 * @param header the `Range` header value, if any
 * @param size the file size in bytes
 * @returns `none` to send the whole file, `range` with inclusive bounds, or `unsatisfiable` (416)
 */
export function parseByteRange(header: string | undefined, size: number): RangeResult {
  if (header === undefined) return { kind: 'none' };
  const match = /^\s*bytes\s*=\s*(\d*)\s*-\s*(\d*)\s*$/i.exec(header);
  // Malformed or multi-range: ignore the header and send everything.
  if (!match || (match[1] === '' && match[2] === '')) return { kind: 'none' };
  let start: number;
  let end: number;
  if (match[1] === '') {
    const suffix = Number(match[2]);
    if (suffix === 0) return { kind: 'unsatisfiable' };
    start = Math.max(0, size - suffix);
    end = size - 1;
  } else {
    start = Number(match[1]);
    end = match[2] === '' ? size - 1 : Math.min(Number(match[2]), size - 1);
    if (match[2] !== '' && Number(match[2]) < start) return { kind: 'none' };
  }
  if (start >= size || size === 0) return { kind: 'unsatisfiable' };
  return { kind: 'range', start, end };
}
