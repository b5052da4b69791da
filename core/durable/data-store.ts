/**
 * @module data-store
 * The one embedded store of a lone host's data folder, low under every durable store: one
 * LMDB environment (`store.mdb`) with a named database per store, the content-addressed
 * folder of bytes beside it (blob-folder.ts), the folder's lock (data-lock.ts) and its
 * format (store-format.ts). LMDB (lmdb-js) installs prebuilt from the registry, commits
 * transactions atomically, and survives `kill -9` at any moment with every committed one.
 *
 * Acknowledged means on disk: `write` runs its work in one write transaction and resolves only
 * once that transaction is committed and flushed, by lmdb-js's own commit on its write thread.
 * lmdb-js by default resolves at the commit and flushes afterwards (`overlappingSync`); it is
 * turned off here so that the commit itself flushes before the promise resolves. A write that
 * finds no room (a full disk, a file-size limit, a full map) fails as the catalogued 507 with
 * nothing of it stored.
 */
import { AsyncResource } from 'node:async_hooks';
import { existsSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { open, type Database, type RootDatabase } from 'lmdb';
import { BlobFolder } from './blob-folder.ts';
import { DISK_DATABASES, type DiskKey } from './disk-keys.ts';
import { lockDataDir } from './data-lock.ts';
import { missingStore, missingStoreProblem, probeStore, storeFileProblem } from './store-file-check.ts';
import { checkFormat, FORMAT_STEPS, FORMAT_VERSION, type FormatStep } from './store-format.ts';
import { orStorageFull } from './storage-full.ts';

/** The store's file in the data folder. */
export const STORE_FILE = 'store.mdb';

export interface DataStore {
  /** The data folder. */
  readonly dir: string;
  /** Bytes by their SHA-256. */
  readonly blobs: BlobFolder;
  /** The named database of one store (disk-keys.ts names them; all are opened with the store). */
  db<V>(name: string): Database<V, DiskKey>;
  /** Runs `work` in one write transaction (all of it or none); resolves once it is committed and on disk. */
  write<T>(work: () => T): Promise<T>;
  /** True while the work of a {@link write} runs: what must join that transaction checks it. */
  readonly writing: boolean;
  /** A consistent copy of the store into `file` (while writes go on). */
  copyTo(file: string): Promise<void>;
  close(): Promise<void>;
}

/** What a damaged store file is told with: where it is and how to move it aside. */
export function damagedStore(file: string, why: string): Error {
  return new Error(
    `the store ${file} cannot be read (${why}): it is damaged or not a vitrine store. The host will not start empty in its place: ` +
      `move it aside (mv '${file}' '${file}.damaged', and '${file}-lock' with it) and start again, or serve a backup (vitrine serve --data-dir BACKUP)`,
  );
}

/** How the store's environment is opened: every commit flushed before it resolves (the benchmark opens its baseline with these too). */
export const STORE_OPTIONS = { maxDbs: 64, overlappingSync: false, noSync: false } as const;

function openEnv(file: string): RootDatabase {
  try {
    return open({ path: file, ...STORE_OPTIONS });
  } catch (error) {
    throw damagedStore(file, (error as Error).message);
  }
}

/**
 * `work` in a write transaction, its failure kept to itself: lmdb-js's own child transaction
 * (its `childTransaction` outside any transaction), which a throw rolls back alone (nothing of
 * that write is kept, a change or its log entry without the other least of all), the throw
 * rethrown once the rest is committed.
 *
 * Every write goes to lmdb-js's write thread, where the transactions queued in one event turn
 * share a commit and one flush (the library's own batched path). lmdb-js runs every
 * transaction queued behind the first (in the same turn, or while a commit is under way) in
 * the async context of the write that started the batch, so `work` is bound to its caller's:
 * what it stamps (who a logged change is by) is its own request's, never that of another
 * request or of a result whose write happened to open the batch.
 */
async function transact<T>(env: RootDatabase, file: string, work: () => T, within: { writing: boolean }): Promise<T> {
  // The caller's async context, entered by the work (AsyncResource.bind would do the same, and
  // on Node 20 makes two deprecation wrappers a call for a property of the bound function).
  const caller = new AsyncResource('vitrine.write');
  const inChild = () => {
    within.writing = true;
    try {
      // Boxed: lmdb-js waits on what a transaction's work gives back when that is a promise (a put's).
      return { value: caller.runInAsyncScope(work) };
    } finally {
      within.writing = false;
    }
  };
  // A write asked inside another's work is queued behind it in the same commit (lmdb-js would
  // otherwise run it there and then, and answer it before that commit is on disk); queued in a
  // transaction, lmdb-js runs the child at once and gives back its boxed value, no promise.
  const queued = () => env.transaction(() => env.childTransaction(inChild) as unknown as { value: T });
  return (await orStorageFull(within.writing ? queued() : env.childTransaction(inChild), file)).value;
}

/**
 * A failed commit rejects each write's promise (answered as the 507 or the fault it was) and
 * also promises of lmdb-js's own that nothing awaits; those carry only the summary of a
 * failure already answered. Every other unhandled rejection ends the process, as it would
 * without this listener.
 */
function leaveCommitSummaries(reason: unknown): void {
  if (reason instanceof Error && 'commitError' in reason) return;
  throw reason;
}

/**
 * The store's databases by name, each opened once. Those of disk-keys.ts are all opened with
 * the store; another (a format step's, a test's) is opened on first use, never inside a write,
 * where a failure of that write would close it again.
 */
function databases(env: RootDatabase, within: { writing: boolean }): <V>(name: string) => Database<V, DiskKey> {
  const dbs = new Map<string, Database<unknown, DiskKey>>();
  return <V>(name: string) => {
    let found = dbs.get(name);
    if (!found) {
      if (within.writing) throw new Error(`the database '${name}' is opened with the store, not inside a write: name it in disk-keys.ts`);
      dbs.set(name, (found = env.openDB({ name })));
    }
    return found as Database<V, DiskKey>;
  };
}

/** Turns of the event loop a closing store waits out for writes that lead to more writes. */
const CLOSING_TURNS = 10;

/**
 * Waits for the writes under way and then a turn of the event loop, a few times over: what
 * awaited a write (a layer's run telling its room) reads the store next, and does so before the
 * store closes. lmdb-js answers a read of a closed store with a timer that throws, which would
 * end the process.
 */
async function settle(writes: ReadonlySet<Promise<unknown>>): Promise<void> {
  for (let turn = 0; turn < CLOSING_TURNS; turn++) {
    await Promise.allSettled(writes);
    await new Promise((resolve) => setImmediate(resolve));
    if (writes.size === 0) return;
  }
}

/** How a store's format is brought forward: this vitrine's steps, or a test's. */
export interface FormatSteps {
  steps: ReadonlyMap<number, FormatStep>;
  target: number;
}

/** Opens (or makes) the data folder `dir`: locked for this host, its format checked (and an older one migrated), its store open. */
export async function openDataStore(dir: string, format: FormatSteps = { steps: FORMAT_STEPS, target: FORMAT_VERSION }): Promise<DataStore> {
  mkdirSync(dir, { recursive: true });
  const unlock = lockDataDir(dir);
  try {
    const file = path.join(dir, STORE_FILE);
    const left = missingStoreProblem(dir, file);
    if (left) throw missingStore(dir, file, left);
    const problem = storeFileProblem(file) ?? (existsSync(file) ? await probeStore(file) : null);
    if (problem) throw damagedStore(file, problem);
    const env = openEnv(file);
    const within = { writing: false };
    const db = databases(env, within);
    try {
      const writeAll = (work: () => void) => env.transactionSync(work);
      await checkFormat({ dir, file, db, writeAll, copyTo: (target) => env.backup(target, false) }, format.steps, format.target);
    } catch (error) {
      await env.close();
      if ((error as Error).message.startsWith('the data dir ')) throw error;
      throw damagedStore(file, (error as Error).message);
    }
    for (const name of DISK_DATABASES) db(name);
    const blobs = new BlobFolder(dir);
    await blobs.clearTemporary();
    process.on('unhandledRejection', leaveCommitSummaries);
    const writes = new Set<Promise<unknown>>();
    return {
      dir,
      blobs,
      db,
      write: (work) => {
        const done = transact(env, file, work, within);
        const forget = () => void writes.delete(done);
        writes.add(done);
        done.then(forget, forget);
        return done;
      },
      get writing() {
        return within.writing;
      },
      copyTo: (target) => env.backup(target, false),
      async close() {
        await settle(writes);
        await env.close();
        process.off('unhandledRejection', leaveCommitSummaries);
        unlock();
      },
    };
  } catch (error) {
    unlock();
    throw error;
  }
}
