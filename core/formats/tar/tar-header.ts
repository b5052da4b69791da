/**
 * @module tar-header
 * One 512-byte ustar header, written and read: the name, the size in octal, the checksum over
 * the header with its own field as spaces. Only what a plain file needs; the reader knows the
 * other entry types well enough to step over them.
 */
import { fail } from '../format-error.ts';

export const BLOCK = 512;
/** The largest size eleven octal digits hold (8 GiB less a byte). */
const MAX_SIZE = 0o77777777777;
const MAGIC = 'ustar';

function octal(value: number, width: number): string {
  return value.toString(8).padStart(width - 1, '0') + '\0';
}

function checksum(block: Uint8Array): number {
  let sum = 0;
  for (let i = 0; i < BLOCK; i++) sum += i >= 148 && i < 156 ? 0x20 : block[i]!;
  return sum;
}

/** The header of a regular file `name` of `size` bytes, modified at `mtimeMs`. */
export function tarHeader(name: string, size: number, mtimeMs: number): Buffer {
  const nameBytes = Buffer.from(name, 'utf8');
  if (nameBytes.length > 100) throw new Error(`tar entry name '${name}' is longer than 100 bytes`);
  if (!Number.isSafeInteger(size) || size < 0 || size > MAX_SIZE) throw new Error(`tar entry '${name}' is too large (${size} bytes)`);
  const block = Buffer.alloc(BLOCK);
  nameBytes.copy(block, 0);
  block.write(octal(0o644, 8), 100, 'latin1');
  block.write(octal(0, 8), 108, 'latin1');
  block.write(octal(0, 8), 116, 'latin1');
  block.write(octal(size, 12), 124, 'latin1');
  block.write(octal(Math.floor(mtimeMs / 1000), 12), 136, 'latin1');
  block.write('0', 156, 'latin1');
  block.write(`${MAGIC}\u000000`, 257, 'latin1');
  block.write(octal(checksum(block), 7) + ' ', 148, 'latin1');
  return block;
}

/** What a header says: the entry's path, size and type flag. */
export interface TarEntryHeader {
  name: string;
  size: number;
  type: string;
}

function field(block: Uint8Array, start: number, length: number): string {
  const bytes = block.subarray(start, start + length);
  const end = bytes.indexOf(0);
  return Buffer.from(bytes.subarray(0, end < 0 ? length : end)).toString('utf8');
}

function readOctal(block: Uint8Array, start: number, length: number, what: string): number {
  const text = field(block, start, length).trim();
  if (!/^[0-7]+$/.test(text)) fail(`the tar header at byte ${what} has no octal ${text === '' ? 'number' : `number (got '${text.slice(0, 12)}')`}`);
  return parseInt(text, 8);
}

/** Reads the header `block` found at byte `at`. @throws FormatError when it is not a ustar header. */
export function readTarHeader(block: Uint8Array, at: number): TarEntryHeader {
  if (field(block, 257, 6) !== MAGIC) fail(`the block at byte ${at} is not a ustar header`);
  if (readOctal(block, 148, 8, String(at)) !== checksum(block)) fail(`the tar header at byte ${at} fails its checksum`);
  const prefix = field(block, 345, 155);
  const name = field(block, 0, 100);
  return { name: prefix ? `${prefix}/${name}` : name, size: readOctal(block, 124, 12, String(at)), type: field(block, 156, 1) || '0' };
}

/** Whether `block` is all zeros (the end of an archive). */
export function isZeroBlock(block: Uint8Array): boolean {
  for (let i = 0; i < block.length; i++) if (block[i] !== 0) return false;
  return true;
}
