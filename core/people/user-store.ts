/**
 * @module user-store
 * Where the people who may use a host are kept, one interface for every home: a host's memory
 * (memory-user-store.ts), a Redis service (redis-user-store.ts) and a lone host's data dir
 * (lmdb-user-store.ts). A home keeps records, never tokens: only a token's SHA-256 is stored, so
 * a copy of the store lets no one in. Making tokens and checking names is users.ts's, above
 * every home, so a new home only keeps and finds records.
 */

/** One person as kept: the token is only ever its digest. */
export interface UserRecord {
  name: string;
  admin: boolean;
  /** Hex SHA-256 of the user's token. */
  tokenHash: string;
  /** When the user was added (ms since the epoch). */
  created: number;
}

export interface UserStore {
  /** Keeps a new user; false (and nothing changed) when the name is taken. */
  add(record: UserRecord): Promise<boolean>;
  /** The user whose token has this digest, or null. */
  byTokenHash(tokenHash: string): Promise<UserRecord | null>;
  /** Every user, by name. */
  list(): Promise<UserRecord[]>;
  /** Forgets a user and its token at once; false when there was none. */
  remove(name: string): Promise<boolean>;
  /**
   * Says of every change of the users (`changed`), made by this store or by any other process of
   * its home, before a request that could see it is read; `lost` when it can no longer promise
   * that. A home that cannot promise it at all leaves this out, and who a token stands for is
   * then asked of it on every request. Answers how to stop, or null when it cannot watch.
   */
  watch?(watcher: UsersWatcher): (() => void) | null;
  close(): Promise<void>;
}

export interface UsersWatcher {
  changed(): void;
  lost(): void;
}

/** Records ordered by name, as `list` answers them. */
export function byName(records: UserRecord[]): UserRecord[] {
  return records.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}
