/**
 * @module store-file-check
 * A look at the store file before the engine opens it: LMDB trusts its two meta pages, and a
 * file that is not one (overwritten, truncated, another program's) can crash the process
 * inside the engine rather than fail. Each meta page must carry LMDB's magic number, the
 * second one page size after the first. And a store file gone from a folder that held one
 * (its bytes still there, or the engine's lock file beside where it was): the records that
 * name those bytes are gone with it, and a store made new there would hide that (unless it was
 * moved aside as a damaged store is told to be: then starting afresh is the operator's choice).
 */
import { closeSync, existsSync, openSync, readdirSync, readSync, statSync } from 'node:fs';
import path from 'node:path';

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

/** A blob's file name in the folder of bytes. */
const BLOB_NAME = /^[0-9a-f]{64}$/;

/**
 * Null when the store file `file` is there or the folder `dir` never held one; else what shows
 * that it did (the folder's bytes, the engine's lock file), for the refusal.
 */
export function missingStoreProblem(dir: string, file: string): string | null {
  // A store moved aside as a damaged one is told to be (`.damaged`) was let go on purpose.
  if (existsSync(file) || existsSync(`${file}.damaged`)) return null;
  const signs: string[] = [];
  const blobs = path.join(dir, 'blobs');
  const count = existsSync(blobs) ? readdirSync(blobs).filter((name) => BLOB_NAME.test(name)).length : 0;
  if (count > 0) signs.push(`${count} file${count === 1 ? '' : 's'} of bytes in ${blobs}`);
  if (existsSync(`${file}-lock`)) signs.push(`its lock file ${file}-lock`);
  return signs.length === 0 ? null : signs.join(' and ');
}

/** What a folder that lost its store file is told with: what is left, and the two ways on. */
export function missingStore(dir: string, file: string, left: string): Error {
  return new Error(
    `the data dir ${dir} held a store, and its store file ${file} is gone (${left} still there): what people made there ` +
      `(rooms, marks, snapshots, published specimens, users) is not in it, and the host will not start empty beside it. Put the store file back ` +
      `(from a backup: vitrine serve --data-dir BACKUP serves one as it was), or move the folder aside to start afresh (mv '${dir}' '${dir}.orphaned')`,
  );
}
