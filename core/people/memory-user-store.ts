/**
 * @module memory-user-store
 * Users in one host's memory: for a host started in code, or with no data dir; gone with it.
 */
import { byName, type UserRecord, type UserStore, type UsersWatcher } from './user-store.ts';

export class MemoryUserStore implements UserStore {
  #byName = new Map<string, UserRecord>();
  #byHash = new Map<string, UserRecord>();
  #watchers = new Set<UsersWatcher>();

  async add(record: UserRecord): Promise<boolean> {
    if (this.#byName.has(record.name)) return false;
    this.#byName.set(record.name, { ...record });
    this.#byHash.set(record.tokenHash, { ...record });
    for (const watcher of this.#watchers) watcher.changed();
    return true;
  }

  async byTokenHash(tokenHash: string): Promise<UserRecord | null> {
    const found = this.#byHash.get(tokenHash);
    return found ? { ...found } : null;
  }

  async list(): Promise<UserRecord[]> {
    return byName([...this.#byName.values()].map((record) => ({ ...record })));
  }

  async remove(name: string): Promise<boolean> {
    const record = this.#byName.get(name);
    if (!record) return false;
    this.#byName.delete(name);
    this.#byHash.delete(record.tokenHash);
    for (const watcher of this.#watchers) watcher.changed();
    return true;
  }

  /** Nobody else reaches this memory: every change is one of this store's own. */
  watch(watcher: UsersWatcher): () => void {
    this.#watchers.add(watcher);
    return () => this.#watchers.delete(watcher);
  }

  async close(): Promise<void> {}
}
