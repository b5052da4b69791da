/**
 * @module store-format
 * The version of what a data folder holds, kept as the `format` record of its `meta` database:
 * written at the first start, read at every other. A folder written by a newer vitrine is
 * refused, naming both versions, rather than read wrongly. One written by an older vitrine is
 * migrated at start, one step per format, after a copy of the store as it was is kept beside it
 * (`store.mdb.format-<n>`), so a migration that goes wrong loses nothing: the copy can be served.
 */
import { existsSync } from 'node:fs';
import type { Database } from 'lmdb';
import { DISK } from './disk-keys.ts';

/** The format this vitrine writes and reads. */
export const FORMAT_VERSION = 1;

type Db = Database<unknown, string | (string | number)[]>;

/** Brings a store of one format to the next, inside the write transaction that records the new format. */
export type FormatStep = (db: (name: string) => Db) => void;

/** The step from each older format to the one after it: none yet, format 1 is the first vitrine wrote. */
export const FORMAT_STEPS: ReadonlyMap<number, FormatStep> = new Map();

interface FormatRecord {
  version: number;
  created: number;
  /** The format the store was first written in, once it has been migrated. */
  migrated_from?: number;
}

/** What checking a store's format needs of the store being opened. */
export interface FormatHost {
  dir: string;
  file: string;
  db: (name: string) => Db;
  /** Runs `work` in one write transaction, committed and flushed when it returns; a throw aborts all of it. */
  writeAll: (work: () => void) => void;
  /** A consistent copy of the store into `file`. */
  copyTo: (file: string) => Promise<void>;
}

function isFormat(value: unknown): value is FormatRecord {
  return typeof value === 'object' && value !== null && Number.isInteger((value as FormatRecord).version);
}

/** The file the store as it was in format `version` is kept in before it is migrated. */
export const formatCopyOf = (file: string, version: number): string => `${file}.format-${version}`;

/**
 * Checks (or, on a new store, writes) the format record and migrates an older store; throws
 * when it cannot be served. `steps` is this vitrine's table, or a test's.
 */
export async function checkFormat(store: FormatHost, steps: ReadonlyMap<number, FormatStep> = FORMAT_STEPS, target = FORMAT_VERSION): Promise<void> {
  const meta = store.db(DISK.meta.name);
  const found: unknown = meta.get(DISK.meta.format);
  if (found === undefined) {
    await meta.put(DISK.meta.format, { version: target, created: Date.now() } satisfies FormatRecord);
    return;
  }
  if (!isFormat(found)) throw new Error('its format record is not one vitrine wrote');
  if (found.version > target) {
    throw new Error(
      `the data dir ${store.dir} was written by a newer vitrine (store format ${found.version}; this one reads format ${target}): ` +
        'upgrade vitrine, or give this host another --data-dir',
    );
  }
  if (found.version === target) return;
  const missing = Array.from({ length: target - found.version }, (_, i) => found.version + i).find((version) => !steps.has(version));
  if (missing !== undefined) {
    throw new Error(
      `the data dir ${store.dir} was written in store format ${found.version}, which this vitrine (format ${target}) cannot bring forward ` +
        `(no step from format ${missing}): serve it with the vitrine that wrote it, or give this host another --data-dir`,
    );
  }
  const copy = formatCopyOf(store.file, found.version);
  // A copy left by an earlier start that stopped mid-way is the older one: the store itself is unchanged until the commit.
  if (!existsSync(copy)) await store.copyTo(copy);
  try {
    store.writeAll(() => {
      for (let version = found.version; version < target; version++) steps.get(version)!(store.db);
      meta.putSync(DISK.meta.format, { version: target, created: found.created, migrated_from: found.migrated_from ?? found.version } satisfies FormatRecord);
    });
  } catch (error) {
    throw new Error(
      `the data dir ${store.dir} could not be brought from store format ${found.version} to ${target} (${(error as Error).message}); ` +
        `nothing of it was changed, and a copy of it as it was is ${copy}`,
    );
  }
}
