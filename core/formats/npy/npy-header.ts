/**
 * @module npy-header
 * Reads the header of a NumPy `.npy` file (format versions 1, 2 and 3) without touching its
 * data: the magic, the header dictionary (`descr`, `fortran_order`, `shape`) and where the
 * data starts. The data itself is streamed by catalog/open-static-data.ts.
 * Format: https://numpy.org/doc/stable/reference/generated/numpy.lib.format.html
 */
import type { FileHandle } from 'node:fs/promises';
import { fail } from '../format-error.ts';
import { NUMPY_KINDS, type DType } from '../../envelope/dtypes.ts';

const MAGIC = Buffer.from([0x93, 0x4e, 0x55, 0x4d, 0x50, 0x59]); // \x93NUMPY
/** Header dictionaries are a few hundred bytes; anything much larger is not a real file. */
const MAX_HEADER_LENGTH = 1 << 20;

/** Raised for a file that is not a `.npy` this host can serve; the message says why. */
export class NpyFormatError extends Error {
  override name = 'NpyFormatError';
}

/** What `read` gives; a NpyFormatError it throws is the file's FormatError, with its message. */
export function npyOrFail<T>(read: () => T): T {
  try {
    return read();
  } catch (error) {
    if (error instanceof NpyFormatError) fail(error.message);
    throw error;
  }
}

export type ByteOrder = 'little' | 'big';

export interface NpyHeader {
  /** Format version as `major.minor`, e.g. `1.0`. */
  version: string;
  /** The raw `descr`, e.g. `<f4`. */
  descr: string;
  fortranOrder: boolean;
  shape: number[];
  /** Byte offset of the first element. */
  dataOffset: number;
}

export interface NpyElementType {
  dtype: DType;
  itemSize: number;
  byteOrder: ByteOrder;
}

/** Element kind + size → envelope dtype. `b1` (bool) travels as uint8. */
const KINDS: Record<string, DType> = { ...NUMPY_KINDS, b1: 'uint8' };

/**
 * Maps a simple `descr` to its envelope dtype, element size and byte order.
 * @throws NpyFormatError for structured, 64-bit integer, float16, complex or string dtypes.
 */
export function npyElementType(descr: string): NpyElementType {
  const match = /^([<>|=])([a-z]\d+)$/.exec(descr);
  const dtype = match ? KINDS[match[2]!] : undefined;
  if (!match || !dtype) throw new NpyFormatError(`unsupported dtype '${descr}'`);
  const itemSize = Number(match[2]!.slice(1));
  return { dtype, itemSize, byteOrder: match[1] === '>' && itemSize > 1 ? 'big' : 'little' };
}

/** The value of `key` in the header dict, written by NumPy as a Python literal. */
function field(dict: string, key: string, value: string): RegExpExecArray | null {
  return new RegExp(`['"]${key}['"]\\s*:\\s*${value}`).exec(dict);
}

/** Parses the Python dict literal of a header. */
export function parseHeaderDict(dict: string): Pick<NpyHeader, 'descr' | 'fortranOrder' | 'shape'> {
  const descr = field(dict, 'descr', `(?:'([^']*)'|"([^"]*)")`);
  if (!descr) throw new NpyFormatError("header has no simple 'descr' (structured dtypes are not supported)");
  const fortran = field(dict, 'fortran_order', '(True|False)');
  if (!fortran) throw new NpyFormatError("header has no 'fortran_order'");
  const shape = field(dict, 'shape', '\\(([^)]*)\\)');
  if (!shape) throw new NpyFormatError("header has no 'shape'");
  const dims = shape[1]!
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '')
    .map((s) => {
      // Python 2 files may write long integers as `64L`.
      const digits = /^(\d+)L?$/.exec(s);
      if (!digits) throw new NpyFormatError(`invalid shape entry '${s}'`);
      const n = Number(digits[1]);
      if (!Number.isSafeInteger(n)) throw new NpyFormatError(`shape entry ${s} is too large`);
      return n;
    });
  return { descr: descr[1] ?? descr[2]!, fortranOrder: fortran[1] === 'True', shape: dims };
}

/**
 * Where the header dict sits, from the fixed prelude (the first 12 bytes suffice).
 * @throws NpyFormatError on a bad magic or an unknown version.
 */
export function parsePrelude(prelude: Buffer): { version: string; dictStart: number; dictLength: number } {
  if (prelude.length < 10 || !prelude.subarray(0, 6).equals(MAGIC)) {
    throw new NpyFormatError('not a .npy file (bad magic)');
  }
  const major = prelude[6]!;
  const minor = prelude[7]!;
  if (major === 1) return { version: `1.${minor}`, dictStart: 10, dictLength: prelude.readUInt16LE(8) };
  if (major === 2 || major === 3) {
    if (prelude.length < 12) throw new NpyFormatError('truncated .npy header');
    return { version: `${major}.${minor}`, dictStart: 12, dictLength: prelude.readUInt32LE(8) };
  }
  throw new NpyFormatError(`unsupported .npy version ${major}.${minor}`);
}

/**
 * Parses a header from the file's first bytes (at least the whole header).
 * @throws NpyFormatError when `bytes` is not a complete, supported header.
 */
export function parseNpyHeader(bytes: Buffer): NpyHeader {
  const { version, dictStart, dictLength } = parsePrelude(bytes);
  if (dictLength > MAX_HEADER_LENGTH) throw new NpyFormatError(`header of ${dictLength} bytes is implausibly large`);
  if (bytes.length < dictStart + dictLength) throw new NpyFormatError('truncated .npy header');
  // Version 1 and 2 headers are latin1; version 3 headers are UTF-8. The keys we read are ASCII.
  const encoding = version.startsWith('3.') ? 'utf8' : 'latin1';
  const dict = bytes.toString(encoding, dictStart, dictStart + dictLength);
  return { version, ...parseHeaderDict(dict), dataOffset: dictStart + dictLength };
}

/** Reads exactly `length` bytes at `position`, or fewer at end of file. */
async function readAt(handle: FileHandle, position: number, length: number): Promise<Buffer> {
  const buffer = Buffer.alloc(length);
  let filled = 0;
  while (filled < length) {
    const { bytesRead } = await handle.read(buffer, filled, length - filled, position + filled);
    if (bytesRead === 0) break;
    filled += bytesRead;
  }
  return buffer.subarray(0, filled);
}

/**
 * Reads and parses the header of an open `.npy` file: two small reads, never the data.
 * @throws NpyFormatError when the file is not a supported `.npy`.
 */
export async function readNpyHeader(handle: FileHandle): Promise<NpyHeader> {
  const prelude = await readAt(handle, 0, 12);
  const { dictStart, dictLength } = parsePrelude(prelude);
  if (dictLength > MAX_HEADER_LENGTH) throw new NpyFormatError(`header of ${dictLength} bytes is implausibly large`);
  return parseNpyHeader(await readAt(handle, 0, dictStart + dictLength));
}

/** Number of elements of `shape` (1 for a 0-d array). */
export function elementCount(shape: readonly number[]): number {
  return shape.reduce((a, b) => a * b, 1);
}

/**
 * True when a Fortran-ordered array has the same bytes as its C-ordered twin: at most one
 * dimension longer than 1.
 */
export function fortranIsCOrder(shape: readonly number[]): boolean {
  return shape.filter((n) => n > 1).length <= 1;
}

/** Reverses the bytes of each `size`-byte sample in place (big-endian to the host's order). */
export function swapBytes(target: Uint8Array, size: number): void {
  for (let i = 0; i < target.length; i += size) {
    for (let lo = i, hi = i + size - 1; lo < hi; lo++, hi--) {
      const b = target[lo]!;
      target[lo] = target[hi]!;
      target[hi] = b;
    }
  }
}
