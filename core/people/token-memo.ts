/**
 * @module token-memo
 * Who a token stood for, remembered between its requests (by the `Authorization` header as sent).
 * On a busy host, hashing the token and reading its record cost an identified request far more
 * than they do in a loop (the SHA-256 code and the users' pages are cold by the time the next
 * request comes), which made a user's request markedly dearer than an anonymous one. A token's
 * identity is remembered only while its users' store promises to say of every change, its own or
 * another process's, before a request that could see the change arrives: any change forgets
 * everything, and a store that cannot promise that (or stops being able to) is asked on every
 * request.
 */
import type { Identity } from './users.ts';

/** How many tokens are remembered at most; beyond that, the oldest is forgotten. */
const MAX_TOKENS = 1024;

export class TokenMemo {
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
