/**
 * @module trust-host
 * One host (of any home: memory, a data folder, a Redis service) as the trust tests speak to
 * it: its URL, and the headers each person sends (`own` owns the rooms the tests close, `vi`
 * views them, `other` is a user with no access, `gone` a user a test removes, `anonymous` sends
 * nothing). A memory host knows
 * its people from a trusted login proxy's header; the others from their users' tokens. Also
 * closing a room and a JSON call as someone.
 */
import { expect } from 'vitest';
import { settled } from '../helpers/wait-for.ts';
import { bearer } from './people-helpers.ts';

export type Who = 'own' | 'vi' | 'other' | 'anonymous' | 'gone';

export interface TrustHost {
  url: string;
  /** What `who` sends to be who they are. */
  as(who: Who): Record<string, string>;
  /** The same host's other process, on a service (else the same URL): where a second look is taken. */
  otherUrl?: string;
}

/** A host whose people are named by tokens (a data folder's users, a service's). */
export function tokenPeople(url: string, tokens: Record<string, string>, otherUrl?: string): TrustHost {
  return { url, otherUrl, as: (who) => (who === 'anonymous' ? {} : bearer(tokens[who]!)) };
}

/** A host whose people are named by a login proxy it trusts (the tests' own address). */
export function proxyPeople(url: string): TrustHost {
  return { url, as: (who): Record<string, string> => (who === 'anonymous' ? {} : { 'x-forwarded-user': who }) };
}

export interface Answer {
  status: number;
  body: Record<string, unknown> | null;
  headers: Headers;
}

/** `method path` as `who`, with a JSON body when one is given; the answer's JSON (null when none). */
export async function call(host: TrustHost, who: Who, method: string, path: string, body?: unknown, base = host.url): Promise<Answer> {
  const headers = { ...host.as(who), ...(body === undefined ? {} : { 'content-type': 'application/json' }) };
  const sent = fetch(`${base}${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const response = await settled(sent, `${method} ${path} as ${who} to be answered`);
  const text = await response.text();
  let parsed: Record<string, unknown> | null = null;
  try {
    parsed = text ? (JSON.parse(text) as Record<string, unknown>) : null;
  } catch {
    parsed = null;
  }
  return { status: response.status, body: parsed, headers: response.headers };
}

/** Closes room `r` as its owner: `vi` may read it, nobody else. */
export async function closeRoom(host: TrustHost, r: string): Promise<void> {
  const set = await call(host, 'own', 'PUT', `/api/rooms/${encodeURIComponent(r)}/access`, { viewers: ['vi'], public: 'none' });
  expect(set.status, JSON.stringify(set.body)).toBe(200);
}
