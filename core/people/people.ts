/**
 * @module people
 * A host's people service: who a request is (a trusted proxy's user header, a token, a stream
 * ticket) and what rooms let them do, over the user, ticket and access stores of the host's home.
 * Nothing here answers HTTP; install-people.ts puts it in front of the routes.
 *
 * Who a token stood for, remembered between its requests (by the `Authorization` header as sent).
 * On a busy host, hashing the token and reading its record cost an identified request far more
 * than they do in a loop (the SHA-256 code and the users' pages are cold by the time the next
 * request comes), which made a user's request markedly dearer than an anonymous one. A token's
 * identity is remembered only while its users' store promises to say of every change, its own or
 * another process's, before a request that could see the change arrives: any change forgets
 * everything, and a store that cannot promise that (or stops being able to) is asked on every
 * request.
 */
import { hash, timingSafeEqual } from 'node:crypto';
import { createHostError } from '../errors.ts';
import type { AccessStore } from './access-store.ts';
import { accessRefusal, type RoomAccess, type Want } from './room-access.ts';
import type { ReaderChecks } from './room-readers.ts';
import type { TicketStore } from './ticket-store.ts';
import type { ProxyTrust } from './trusted-proxy.ts';
import type { UserStore } from './user-store.ts';
import { ADMIN_NAME, stillThere, userNameProblem, userOfToken, type Identity } from './users.ts';

/** How many tokens are remembered at most; beyond that, the oldest is forgotten. */
const MAX_TOKENS = 1024;

class TokenMemo {
  #known = new Map<string, Identity>();
  #enabled: boolean;
  /** Bumped by every change, so a lookup that began before one is not remembered after it. */
  #generation = 0;

  constructor(enabled: boolean) {
    this.#enabled = enabled;
  }

  /** The identity remembered for `token`, if any. */
  get(token: string): Identity | undefined {
    return this.#known.get(token);
  }

  /** The current generation: pass it back to {@link remember} with what a lookup found. */
  get generation(): number {
    return this.#generation;
  }

  /** Remembers `identity` for `token`, unless the users changed since `generation`. */
  remember(token: string, identity: Identity, generation: number): Identity {
    const kept: Identity = Object.freeze({ name: identity.name, admin: identity.admin, ...(identity.tokenHash ? { tokenHash: identity.tokenHash } : {}) });
    if (!this.#enabled || generation !== this.#generation) return kept;
    if (this.#known.size >= MAX_TOKENS) this.#known.delete(this.#known.keys().next().value!);
    this.#known.set(token, kept);
    return kept;
  }

  /** The users changed: nothing remembered holds any more. */
  changed(): void {
    this.#generation++;
    this.#known.clear();
  }

  /** The store can no longer say of changes: forget, and remember nothing from now on. */
  lost(): void {
    this.#enabled = false;
    this.changed();
  }
}

export interface PeopleStores {
  users: UserStore;
  tickets: TicketStore;
  access: AccessStore;
}

export interface PeopleSettings {
  /** The admin token (`--admin-token`), an admin when presented; null when there is none. */
  adminToken: string | null;
  trust: ProxyTrust;
  /** The header a trusted proxy names the user in, lower case. */
  userHeader: string;
}

/** What a request shows of itself to be identified. */
export interface Presented {
  /** The connection's peer address. */
  peer: string | undefined;
  authorization: string | undefined;
  /** The trusted proxy header's value(s). */
  proxyUser: string | string[] | undefined;
  /** A `?ticket=` of the query string. */
  ticket: string | undefined;
}

const digest = (text: string) => hash('sha256', text, 'buffer');

/** The token of an `Authorization: Bearer` header, or null for any other (or none). */
function bearerToken(authorization: string | undefined): string | null {
  const bearer = typeof authorization === 'string' ? /^Bearer\s+(\S+)\s*$/i.exec(authorization.trim()) : null;
  return bearer ? bearer[1]! : null;
}

export class People {
  readonly stores: PeopleStores;
  #settings: PeopleSettings;
  #admin: Buffer | null;
  #memo: TokenMemo;
  #unwatch: (() => void) | null;

  constructor(stores: PeopleStores, settings: PeopleSettings) {
    this.stores = stores;
    this.#settings = settings;
    this.#admin = settings.adminToken ? digest(settings.adminToken) : null;
    // Tokens are remembered only over a store that says of every change of its users.
    const memo = new TokenMemo(true);
    // A user removed beside the host (`vitrine users remove`) was first forgotten in rooms' access.
    const changed = () => {
      memo.changed();
      stores.access.reread?.();
    };
    this.#unwatch = stores.users.watch?.({ changed, lost: () => memo.lost() }) ?? null;
    if (!this.#unwatch) memo.lost();
    this.#memo = memo;
  }

  /**
   * Who presented this when that is known at once, without asking a store (nobody, a trusted
   * proxy's user, a token remembered): the request then goes on in the same turn, with no promise
   * on the way. Undefined when the stores must be asked ({@link identify}).
   */
  knownNow(shown: Presented): Identity | null | undefined {
    const proxied = this.#proxyUser(shown);
    if (proxied) return proxied;
    // Remembered by the header as sent: a user's next request is found before any parsing.
    if (shown.authorization !== undefined) {
      const known = this.#memo.get(shown.authorization);
      if (known) return known;
    }
    if (bearerToken(shown.authorization) !== null) return undefined;
    return shown.ticket === undefined ? null : undefined;
  }

  /** Who presented this, or null for nobody; an unknown token or ticket is refused (401). */
  async identify(shown: Presented): Promise<Identity | null> {
    const proxied = this.#proxyUser(shown);
    if (proxied) return proxied;
    const token = bearerToken(shown.authorization);
    if (token !== null) return this.#ofToken(token, shown.authorization!);
    if (shown.ticket !== undefined) {
      const identity = shown.ticket ? await this.stores.tickets.take(shown.ticket) : null;
      // A ticket of a user removed since it was made stands for nobody.
      if (!identity || !(await stillThere(this.stores.users, identity))) throw createHostError('SPC_ERR_TICKET_UNKNOWN');
      return identity;
    }
    return null;
  }

  /**
   * The user a trusted proxy names, held to the rules `vitrine users add` holds names to: a
   * name the host keeps for itself (`admin` would own every room the admin token closed) or
   * one no user could have is refused (403), never believed and never taken for nobody.
   */
  #proxyUser(shown: Presented): Identity | null {
    const value = Array.isArray(shown.proxyUser) ? shown.proxyUser[0] : shown.proxyUser;
    if (value === undefined || !this.#settings.trust.trusts(shown.peer)) return null;
    const name = value.trim();
    if (name === '') return null;
    if (userNameProblem(name)) throw createHostError('SPC_ERR_PROXY_USER_REFUSED', this.#settings.userHeader, name.slice(0, 64));
    return { name, admin: false };
  }

  /** Who `token` (sent as the header `authorization`) stands for; an unknown one is refused. */
  async #ofToken(token: string, authorization: string): Promise<Identity> {
    const known = this.#memo.get(authorization);
    if (known) return known;
    const generation = this.#memo.generation;
    if (this.#admin && timingSafeEqual(digest(token), this.#admin)) return this.#memo.remember(authorization, { name: ADMIN_NAME, admin: true }, generation);
    const user = await userOfToken(this.stores.users, token);
    if (user) return this.#memo.remember(authorization, user, generation);
    const error = createHostError('SPC_ERR_TOKEN_UNKNOWN');
    error.headers['www-authenticate'] = 'Bearer error="invalid_token"';
    throw error;
  }

  /**
   * Whether the room's access was at hand to decide on now (false: {@link check} must ask the
   * store); throws the refusal when `who` may not `want` it.
   */
  checkedNow(roomId: string, who: Identity | null, want: Want): boolean {
    const access = this.stores.access.known(roomId);
    if (access === undefined) return false;
    const refusal = accessRefusal(roomId, access, who, want);
    if (refusal) throw refusal;
    return true;
  }

  /** Throws the refusal when `who` may not `want` the room. */
  async check(roomId: string, who: Identity | null, want: Want): Promise<RoomAccess | null> {
    const access = await this.stores.access.get(roomId);
    const refusal = accessRefusal(roomId, access, who, want);
    if (refusal) throw refusal;
    return access;
  }

  /** Whether `who` may `want` the room: at once where its access is at hand, else once the store says. */
  may(roomId: string, who: Identity | null, want: Want): boolean | Promise<boolean> {
    const access = this.stores.access.known(roomId);
    if (access !== undefined) return accessRefusal(roomId, access, who, want) === null;
    return this.stores.access.get(roomId).then((fetched) => accessRefusal(roomId, fetched, who, want) === null);
  }

  /** Whether `who` may `want` one of `roomIds` at least; an empty list names no room, so anyone may. */
  async mayAny(roomIds: readonly string[], who: Identity | null, want: Want): Promise<boolean> {
    if (roomIds.length === 0) return true;
    const records = await Promise.all(roomIds.map((roomId) => this.stores.access.get(roomId)));
    return records.some((access, i) => accessRefusal(roomIds[i]!, access, who, want) === null);
  }

  /** What a room's lasting readers are checked against (room-readers.ts): the access and users stores. */
  readerChecks(): ReaderChecks {
    return {
      mayRead: async (roomId, who) => accessRefusal(roomId, await this.stores.access.get(roomId), who, 'read') === null,
      stillThere: (who) => stillThere(this.stores.users, who),
    };
  }

  async close(): Promise<void> {
    this.#unwatch?.();
    await Promise.allSettled([this.stores.users.close(), this.stores.access.close()]);
  }
}
