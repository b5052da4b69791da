/**
 * @module lmdb-user-store
 * Users in a lone host's data folder: the `users` database of the folder's one embedded store
 * (`<data-dir>/store.mdb`, core/durable/), each record under its name and under its token's
 * digest, both written or removed in one transaction. The host reaches it through its open
 * data store; `vitrine users` opens the same file beside a running host (LMDB is shared
 * between processes), and the host sees a new user, or stops honouring a removed one's token,
 * from its next request on (readers see each committed write without reopening anything).
 * Each committed change also rewrites a small file beside the store (`users.changed`), which a
 * host watches: the kernel queues that news before the writer goes on, so the host hears of a
 * change before any request sent after it, and may remember tokens in between (people.ts);
 * hearing it also drops the snapshot this process's reads were sharing, so what is read next is
 * the changed store.
 */
import { existsSync, mkdirSync, watch, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { open, type Database } from 'lmdb';
import { STORE_FILE, STORE_OPTIONS, type DataStore } from '../durable/data-store.ts';
import { DISK } from '../durable/disk-keys.ts';
import type { AccessHome } from './disk-access-store.ts';
import { byName, type UserRecord, type UserStore, type UsersWatcher } from './user-store.ts';

/** The file rewritten after each committed change of the users, in the data folder. */
export const USERS_CHANGED_FILE = 'users.changed';

/** The users' database, how a change to it is committed, and what closing it means. */
export interface UserDb {
  /** The data folder the store is in. */
  dir: string;
  db: Database<UserRecord, string>;
  /** Runs `work` in one write transaction; resolves once it is on disk. */
  write<T>(work: () => T): Promise<T>;
  close(): Promise<void>;
}

/** The users of a host's open data store (closed with the store, not here). */
export function usersOfDataStore(store: DataStore): UserDb {
  const db = store.db<UserRecord>(DISK.users.name) as Database<UserRecord, string>;
  return { dir: store.dir, db, write: (work) => store.write(work), close: async () => {} };
}

/**
 * The users of the data folder `dataDir`, opened by a command beside (or without) its host, with
 * the folder's other databases the same command changes (`folder`: rooms' access).
 */
export function usersOfDataDir(dataDir: string): UserDb & { folder: AccessHome } {
  mkdirSync(dataDir, { recursive: true });
  // The same environment settings as the host's: one file, flushed commits.
  const env = open({ path: join(dataDir, STORE_FILE), ...STORE_OPTIONS });
  const db = env.openDB<UserRecord, string>({ name: DISK.users.name });
  // Whether a write's work is running: a room's log appends only inside the write of its change.
  const within = { writing: false };
  const write = <T>(work: () => T): Promise<T> =>
    env.transaction(() => {
      within.writing = true;
      try {
        return work();
      } finally {
        within.writing = false;
      }
    });
  const folder: AccessHome = {
    db: <V>(name: string) => env.openDB<V, string | (string | number)[]>({ name }),
    write,
    get writing() {
      return within.writing;
    },
  };
  return { dir: dataDir, db, write, folder, close: () => env.close() };
}

export class LmdbUserStore implements UserStore {
  #home: UserDb;

  constructor(home: UserDb) {
    this.#home = home;
  }

  async add(record: UserRecord): Promise<boolean> {
    const { db } = this.#home;
    return this.#change(() => {
      if (db.get(DISK.users.byName(record.name)) !== undefined) return false;
      void db.put(DISK.users.byName(record.name), record);
      void db.put(DISK.users.byToken(record.tokenHash), record);
      return true;
    });
  }

  async byTokenHash(tokenHash: string): Promise<UserRecord | null> {
    return this.#home.db.get(DISK.users.byToken(tokenHash)) ?? null;
  }

  async list(): Promise<UserRecord[]> {
    const records = [...this.#home.db.getRange(DISK.users.names)].map(({ value }) => value);
    return byName(records);
  }

  async remove(name: string): Promise<boolean> {
    const { db } = this.#home;
    return this.#change(() => {
      const record = db.get(DISK.users.byName(name));
      if (record === undefined) return false;
      void db.remove(DISK.users.byName(name));
      void db.remove(DISK.users.byToken(record.tokenHash));
      return true;
    });
  }

  /**
   * Rewrites the file every watcher (in any process) hears of. Also done before a change, so a
   * folder where it cannot be written refuses the change rather than leave hosts unaware of it.
   */
  #tell(): void {
    writeFileSync(join(this.#home.dir, USERS_CHANGED_FILE), `${Date.now()}\n`);
  }

  /** Runs `work` in one write transaction, every watcher told before it and, when it changed the users, after it. */
  async #change(work: () => boolean): Promise<boolean> {
    this.#tell();
    const changed = await this.#home.write(work);
    if (changed) this.#tell();
    return changed;
  }

  watch(watcher: UsersWatcher): (() => void) | null {
    const file = join(this.#home.dir, USERS_CHANGED_FILE);
    try {
      if (!existsSync(file)) writeFileSync(file, '');
      // Not persistent: watching never keeps a process alive on its own.
      const watching = watch(file, { persistent: false }, (event) => {
        if (event !== 'change') return watcher.lost();
        // This process's reads share one snapshot until the event loop next runs its timers, so a
        // read made earlier in this turn (before another process committed the change this news
        // is of) would still be answered from before it: a removed user would be found again, and
        // its readers kept open, with no news left to end them. The next read takes a fresh one.
        this.#home.db.resetReadTxn();
        watcher.changed();
      });
      watching.on('error', () => watcher.lost());
      return () => watching.close();
    } catch {
      return null;
    }
  }

  async close(): Promise<void> {
    await this.#home.close();
  }
}
