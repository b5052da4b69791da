/**
 * @module users
 * People and their tokens above every store: what a user's name may be, a new token (made here,
 * shown once, kept only as its SHA-256), and finding who a token stands for. A token is 32
 * random bytes, base64url, after a `vt_` prefix so a leaked one is easy to recognise and grep for.
 */
import { hash, randomBytes } from 'node:crypto';
import type { UserRecord, UserStore } from './user-store.ts';

/** Who a request is, once known: a user of the store, the admin token, or a trusted proxy's name. */
export interface Identity {
  name: string;
  admin: boolean;
  /**
   * For a user of the store: the digest of the token it was known by, so what it keeps open (a
   * stream, a socket, a ticket) ends once that user is removed. Never answered to anyone.
   */
  tokenHash?: string;
}

/** The name the admin token (`--admin-token`) stands for. */
export const ADMIN_NAME = 'admin';

/** A user's name: what logs, `author` and `by` show. No spaces, slashes or colons. */
export const USER_NAME = /^[A-Za-z0-9][A-Za-z0-9._@+-]{0,127}$/;

/**
 * Names the host gives itself: the admin token's, nobody's (`anonymous`) and the host's own
 * doing in a room's log (`host`). No user, added or named by a login proxy, may take one.
 */
export const RESERVED_NAMES: ReadonlySet<string> = new Set([ADMIN_NAME, 'anonymous', 'host']);

/** Why `name` cannot be a user's name, or null when it can. */
export function userNameProblem(name: string): string | null {
  if (!USER_NAME.test(name)) return `'${name}' is not a user name: letters, digits and . _ @ + - (up to 128, starting with a letter or digit)`;
  if (RESERVED_NAMES.has(name)) return `'${name}' is a name the host keeps for itself`;
  return null;
}

/** The hex SHA-256 of a token: all a store ever keeps of it. */
export function hashToken(token: string): string {
  return hash('sha256', token, 'hex');
}

/** A new random token. */
export function newToken(): string {
  return `vt_${randomBytes(32).toString('base64url')}`;
}

/** Whether an `Authorization` header carries a token of the form {@link newToken} makes (a user's, known or not). */
export function bearsUserToken(authorization: string | undefined): boolean {
  return authorization !== undefined && /^\s*Bearer\s+vt_[A-Za-z0-9_-]{43}\s*$/i.test(authorization);
}

/** Adds a user with a new token; the token is answered here and nowhere else, ever. Null when the name is taken. */
export async function addUser(store: UserStore, name: string, admin: boolean): Promise<{ record: UserRecord; token: string } | null> {
  const token = newToken();
  const record: UserRecord = { name, admin, tokenHash: hashToken(token), created: Date.now() };
  return (await store.add(record)) ? { record, token } : null;
}

/** Who `token` stands for, or null when no user has it. */
export async function userOfToken(store: UserStore, token: string): Promise<Identity | null> {
  const record = await store.byTokenHash(hashToken(token));
  return record ? { name: record.name, admin: record.admin, tokenHash: record.tokenHash } : null;
}

/** Whether `who` is still who it was known as: false once a user of the store was removed (anyone else always is). */
export async function stillThere(store: UserStore, who: Identity): Promise<boolean> {
  if (who.tokenHash === undefined) return true;
  return (await store.byTokenHash(who.tokenHash))?.name === who.name;
}
