/**
 * @module storage-full
 * A write the disk has no room for (a full disk, a quota, a file-size limit, LMDB's map full)
 * as the catalogued 507: nothing of it was stored, reads go on, and the same write succeeds
 * once space is back.
 */
import { wrapHostError } from '../errors.ts';

const FULL_CODES = new Set(['ENOSPC', 'EFBIG', 'EDQUOT']);
const FULL_WORDS = /MDB_MAP_FULL|No space left|File too large|Disk quota exceeded|ENOSPC|EFBIG/i;

/** Whether `error` says the disk had no room. */
export function isStorageFull(error: unknown): boolean {
  const e = error as NodeJS.ErrnoException | null;
  return e !== null && typeof e === 'object' && ((typeof e.code === 'string' && FULL_CODES.has(e.code)) || FULL_WORDS.test(String(e.message)));
}

/** `work`, its "no room" failure turned into SPC_ERR_STORAGE_FULL. */
export async function orStorageFull<T>(work: Promise<T>): Promise<T> {
  try {
    return await work;
  } catch (error) {
    if (isStorageFull(error)) throw wrapHostError(error, 'SPC_ERR_STORAGE_FULL', (error as Error).message);
    throw error;
  }
}
