/**
 * @module store-format
 * The version of what a data folder holds, kept as the `format` record of its `meta` database:
 * written at the first start, read at every other. A folder written by a newer vitrine is
 * refused, naming both versions, rather than read wrongly; one written by an older version
 * would be migrated here, at start, with a copy of the old kept beside it.
 */
import type { Database } from 'lmdb';

/** The format this vitrine writes and reads. */
export const FORMAT_VERSION = 1;

interface FormatRecord {
  version: number;
  created: number;
}

function isFormat(value: unknown): value is FormatRecord {
  return typeof value === 'object' && value !== null && Number.isInteger((value as FormatRecord).version);
}

/** Checks (or, on a new store, writes) the format record; throws when it cannot be served. */
export async function checkFormat(meta: Database<unknown, string | (string | number)[]>, dir: string): Promise<void> {
  const found: unknown = meta.get('format');
  if (found === undefined) {
    await meta.put('format', { version: FORMAT_VERSION, created: Date.now() } satisfies FormatRecord);
    return;
  }
  if (!isFormat(found)) throw new Error('its format record is not one vitrine wrote');
  if (found.version > FORMAT_VERSION) {
    throw new Error(
      `the data dir ${dir} was written by a newer vitrine (store format ${found.version}; this one reads format ${FORMAT_VERSION}): ` +
        'upgrade vitrine, or give this host another --data-dir',
    );
  }
}
