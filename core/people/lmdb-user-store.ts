/**
 * @module lmdb-user-store
 * Users in a lone host's data dir: the `users` sub-database of the embedded store at
 * `<data-dir>/store`, each record under its name and under its token's digest, both written or
 * removed in one transaction. The store is shared between processes, so `vitrine users` changes
 * it while a host runs, and the host sees a new user, or stops honouring a removed one's token,
 * from its next request on (lmdb's readers see each committed write without reopening anything).
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { open, type Database, type RootDatabase } from 'lmdb';
import { byName, type UserRecord, type UserStore } from './user-store.ts';

const NAME = 'user:';
const TOKEN = 'token:';

export class LmdbUserStore implements UserStore {
  #root: RootDatabase;
  #db: Database<UserRecord, string>;

  /** Opens (or makes) the users of the data dir `dataDir`. */
  constructor(dataDir: string) {
    mkdirSync(dataDir, { recursive: true });
    this.#root = open({ path: join(dataDir, 'store') });
    this.#db = this.#root.openDB<UserRecord, string>({ name: 'users', encoding: 'json' });
  }

  async add(record: UserRecord): Promise<boolean> {
    const db = this.#db;
    return db.transaction(() => {
      if (db.get(NAME + record.name) !== undefined) return false;
      void db.put(NAME + record.name, record);
      void db.put(TOKEN + record.tokenHash, record);
      return true;
    });
  }

  async byTokenHash(tokenHash: string): Promise<UserRecord | null> {
    return this.#db.get(TOKEN + tokenHash) ?? null;
  }

  async list(): Promise<UserRecord[]> {
    const records = [...this.#db.getRange({ start: NAME, end: `${NAME}\uffff` })].map(({ value }) => value);
    return byName(records);
  }

  async remove(name: string): Promise<boolean> {
    const db = this.#db;
    return db.transaction(() => {
      const record = db.get(NAME + name);
      if (record === undefined) return false;
      void db.remove(NAME + name);
      void db.remove(TOKEN + record.tokenHash);
      return true;
    });
  }

  async close(): Promise<void> {
    await this.#root.close();
  }
}
