/**
 * @module storage-full
 * A write the disk has no room for (a full disk, a quota, a file-size limit, LMDB's map full)
 * as the catalogued 507: nothing of it was stored, reads go on, and the same write succeeds
 * once space is back.
 */
import { wrapHostError } from '../errors.ts';

const FULL_CODES = new Set<unknown>(['ENOSPC', 'EFBIG', 'EDQUOT', 28, 27, 122, -30792]);
const FULL_WORDS = /MDB_MAP_FULL|No space left|File too large|Disk quota exceeded|ENOSPC|EFBIG/i;

/** Whether `error` says the disk had no room. */
export function isStorageFull(error: unknown): boolean {
  const e = error as NodeJS.ErrnoException | null;
  // lmdb-js gives errno numbers as codes (28 ENOSPC, 27 EFBIG, 122 EDQUOT, -30792 MDB_MAP_FULL).
  return e !== null && typeof e === 'object' && (FULL_CODES.has(e.code) || FULL_WORDS.test(String(e.message)));
}

/** The engine's own reason for a failed commit: lmdb-js rejects with a summary and holds the cause in a promise of its own. */
async function causeOf(error: unknown): Promise<unknown> {
  const held = (error as { commitError?: unknown } | null)?.commitError;
  if (held && typeof (held as Promise<unknown>).then === 'function') return (held as Promise<unknown>).then(() => error, (cause: unknown) => cause);
  return error;
}

/** `work`, its "no room" failure turned into SPC_ERR_STORAGE_FULL. */
export async function orStorageFull<T>(work: Promise<T>): Promise<T> {
  try {
    return await work;
  } catch (error) {
    const cause = await causeOf(error);
    if (isStorageFull(cause)) throw wrapHostError(cause, 'SPC_ERR_STORAGE_FULL', (cause as Error).message);
    throw cause;
  }
}
