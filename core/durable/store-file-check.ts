/**
 * @module store-file-check
 * A look at the store file before the engine opens it: LMDB trusts its two meta pages, and a
 * file that is not one (overwritten, truncated, another program's) can crash the process
 * inside the engine rather than fail. Each meta page must carry LMDB's magic number, the
 * second one page size after the first.
 */
import { closeSync, openSync, readSync, statSync } from 'node:fs';

const MAGIC = 0xbeefc0de;
/** Where the magic number and the page size sit in a meta page (after the 16-byte page header). */
const MAGIC_AT = 24;
const PAGE_SIZE_AT = 48;

/** Null when `file` is absent, empty or looks like a store; else what is wrong with it. */
export function storeFileProblem(file: string): string | null {
  let size: number;
  try {
    size = statSync(file).size;
  } catch {
    return null;
  }
  if (size === 0) return null;
  const fd = openSync(file, 'r');
  try {
    const head = Buffer.alloc(64);
    if (readSync(fd, head, 0, 64, 0) < 64 || head.readUInt32LE(MAGIC_AT) !== MAGIC) return 'its first meta page is not an LMDB one';
    const pageSize = head.readUInt32LE(PAGE_SIZE_AT);
    if (pageSize < 512 || pageSize > 65536 || (pageSize & (pageSize - 1)) !== 0) return `its page size ${pageSize} is not one LMDB writes`;
    if (size < 2 * pageSize) return `it is ${size} bytes, shorter than its two meta pages`;
    const second = Buffer.alloc(4);
    readSync(fd, second, 0, 4, pageSize + MAGIC_AT);
    return second.readUInt32LE(0) === MAGIC ? null : 'its second meta page is not an LMDB one';
  } finally {
    closeSync(fd);
  }
}
