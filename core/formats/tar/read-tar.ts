/**
 * @module read-tar
 * The plain files of a ustar archive held in memory, each a view of the archive's bytes (no
 * copy). Directories and extended headers are stepped over; a file cut short, a header that
 * fails its checksum or an archive without its end is refused with where it went wrong. A
 * leading `./` (as `tar -C dir .` writes) is taken off each name.
 */
import { fail } from '../format-error.ts';
import { BLOCK, isZeroBlock, readTarHeader } from './tar-header.ts';

export interface TarEntry {
  name: string;
  data: Uint8Array;
}

/** Every plain file of `bytes`, in archive order. @throws FormatError naming the byte where it broke. */
export function readTar(bytes: Uint8Array): TarEntry[] {
  const entries: TarEntry[] = [];
  let at = 0;
  for (;;) {
    if (at + BLOCK > bytes.length) fail(`the archive ends at byte ${bytes.length} without its end marker (cut short?)`);
    const block = bytes.subarray(at, at + BLOCK);
    if (isZeroBlock(block)) return entries;
    const header = readTarHeader(block, at);
    const start = at + BLOCK;
    const end = start + header.size;
    if (end > bytes.length) fail(`'${header.name}' needs ${header.size} bytes from byte ${start}, but the archive ends at byte ${bytes.length} (cut short?)`);
    if (header.type === '0' || header.type === '7') entries.push({ name: header.name.replace(/^(?:\.\/)+/, ''), data: bytes.subarray(start, end) });
    at = start + Math.ceil(header.size / BLOCK) * BLOCK;
  }
}
