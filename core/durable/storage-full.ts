/**
 * @module storage-full
 * A write the disk has no room for (a full disk, a quota, a file-size limit, LMDB's map full)
 * as the catalogued 507: nothing of it was stored, reads go on, and the same write succeeds
 * once space is back.
 */
import { readFileSync, statfsSync, statSync } from 'node:fs';
import path from 'node:path';
import { wrapHostError } from '../errors.ts';

const FULL_CODES = new Set<unknown>(['ENOSPC', 'EFBIG', 'EDQUOT', 28, 27, 122, -30792]);
const FULL_WORDS = /MDB_MAP_FULL|No space left|File too large|Disk quota exceeded|ENOSPC|EFBIG/i;
const IO_CODES = new Set<unknown>(['EIO', 5]);
/** Room a commit may need beyond the file's present end before it counts as "no room left". */
const HEADROOM = 8 * 1024 * 1024;

/** Whether `error` says the disk had no room. */
export function isStorageFull(error: unknown): boolean {
  const e = error as NodeJS.ErrnoException | null;
  // lmdb-js gives errno numbers as codes (28 ENOSPC, 27 EFBIG, 122 EDQUOT, -30792 MDB_MAP_FULL).
  return e !== null && typeof e === 'object' && (FULL_CODES.has(e.code) || FULL_WORDS.test(String(e.message)));
}

/** This process's soft limit on a file's size in bytes (Linux), or Infinity. */
function fileSizeLimit(): number {
  try {
    const line = readFileSync('/proc/self/limits', 'utf8')
      .split('\n')
      .find((l) => l.startsWith('Max file size'));
    const soft = line?.slice('Max file size'.length).trim().split(/\s+/)[0];
    return soft && /^\d+$/.test(soft) ? Number(soft) : Infinity;
  } catch {
    return Infinity;
  }
}

/** The bytes the store `file` may still grow by: the least of what its process's file-size limit and its disk's free space leave; null when unknown. */
function roomPastEnd(file: string): number | null {
  try {
    const size = statSync(file).size;
    const disk = statfsSync(path.dirname(file));
    return Math.min(fileSizeLimit() - size, disk.bavail * disk.bsize);
  } catch {
    return null;
  }
}

/**
 * Whether a generic I/O failure on `file` was in fact a lack of room. LMDB reports a page
 * write cut short (the disk filled, or the file reached the process's size limit mid-write)
 * as EIO rather than ENOSPC/EFBIG; so the file's size is compared with the limit and the
 * free space of its disk, and only a write that was at one of those edges is a 507.
 */
function ranOutOfRoom(error: unknown, file: string | undefined): boolean {
  if (!file || !IO_CODES.has((error as NodeJS.ErrnoException | null)?.code)) return false;
  const room = roomPastEnd(file);
  return room !== null && room <= HEADROOM;
}

/** The engine's own reason for a failed commit: lmdb-js rejects with a summary and holds the cause in a promise of its own. */
async function causeOf(error: unknown): Promise<unknown> {
  const held = (error as { commitError?: unknown } | null)?.commitError;
  if (held && typeof (held as Promise<unknown>).then === 'function') return (held as Promise<unknown>).then(() => error, (cause: unknown) => cause);
  return error;
}

/** `work`, its "no room" failure turned into SPC_ERR_STORAGE_FULL; `file` is what it writes, to tell a short write from a faulty disk. */
export async function orStorageFull<T>(work: Promise<T>, file?: string): Promise<T> {
  try {
    return await work;
  } catch (error) {
    const cause = await causeOf(error);
    const message = (cause as Error).message;
    if (isStorageFull(cause)) throw wrapHostError(cause, 'SPC_ERR_STORAGE_FULL', message);
    if (ranOutOfRoom(cause, file)) throw wrapHostError(cause, 'SPC_ERR_STORAGE_FULL', `${message}: ${file} reached the room it may use`);
    throw cause;
  }
}
