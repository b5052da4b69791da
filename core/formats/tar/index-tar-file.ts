/**
 * @module index-tar-file
 * Where each plain file of a ustar archive lying on disk begins and how long it is, read from
 * its headers alone (a block each), so an archive of any size is listed without reading its
 * files. Directories and extended headers are stepped over, a leading `./` (as `tar -C dir .`
 * writes) is taken off each name, and an archive cut short or a header that fails its checksum
 * is refused with where it went wrong.
 */
import type { FileHandle } from 'node:fs/promises';
import { fail } from '../format-error.ts';
import { BLOCK, isZeroBlock, readTarHeader } from './tar-header.ts';

export interface TarFileEntry {
  name: string;
  /** The entry's first byte in the archive. */
  offset: number;
  size: number;
}

/** Whether the archive's first block is a ustar header (its magic at byte 257). */
export async function looksLikeTarFile(handle: FileHandle): Promise<boolean> {
  const block = new Uint8Array(BLOCK);
  const { bytesRead } = await handle.read(block, 0, BLOCK, 0);
  return bytesRead === BLOCK && Buffer.from(block.subarray(257, 262)).toString('latin1') === 'ustar';
}

/** Every plain file of the archive `handle` reads (`length` bytes), in archive order. @throws FormatError naming the byte where it broke. */
export async function indexTarFile(handle: FileHandle, length: number): Promise<TarFileEntry[]> {
  const entries: TarFileEntry[] = [];
  const block = new Uint8Array(BLOCK);
  for (let at = 0; ; ) {
    if (at + BLOCK > length) fail(`the archive ends at byte ${length} without its end marker (cut short?)`);
    await handle.read(block, 0, BLOCK, at);
    if (isZeroBlock(block)) return entries;
    const header = readTarHeader(block, at);
    const start = at + BLOCK;
    const short = start + header.size > length;
    if (short) fail(`'${header.name}' needs ${header.size} bytes from byte ${start}, but the archive ends at byte ${length} (cut short?)`);
    if (header.type === '0' || header.type === '7') entries.push({ name: header.name.replace(/^(?:\.\/)+/, ''), offset: start, size: header.size });
    at = start + Math.ceil(header.size / BLOCK) * BLOCK;
  }
}
