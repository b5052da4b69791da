/**
 * @module people-helpers
 * People for tests: a data dir with users already in it (their tokens at hand), the way
 * `vitrine users add` leaves one, for a host made on it; and a request's Authorization header.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LmdbUserStore, usersOfDataDir } from '../../core/people/lmdb-user-store.ts';
import { addUser } from '../../core/people/users.ts';
import { atFileEnd } from '../helpers/file-end.ts';

export interface PeopleDir {
  dir: string;
  /** Each user's token by name. */
  tokens: Record<string, string>;
}

/** A fresh data dir holding `names` (those in `admins` as admins); removed when the file ends. */
export async function peopleDir(names: string[], admins: string[] = []): Promise<PeopleDir> {
  const dir = await mkdtemp(join(tmpdir(), 'vitrine-people-'));
  atFileEnd(() => rm(dir, { recursive: true, force: true }));
  const store = new LmdbUserStore(usersOfDataDir(dir));
  const tokens: Record<string, string> = {};
  for (const name of names) tokens[name] = (await addUser(store, name, admins.includes(name)))!.token;
  await store.close();
  return { dir, tokens };
}

/** The header a user's token goes in. */
export function bearer(token: string): { authorization: string } {
  return { authorization: `Bearer ${token}` };
}
