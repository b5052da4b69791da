/**
 * @module request-input
 * Reading the parts of a request every route group shares, once their route schemas have
 * checked them (route-inputs.ts): the room id, a progress `since` and a page of a log.
 */
import { createHostError } from '../errors.ts';
import type { ResolvedHostOptions } from '../options.ts';

/** A room id from a request; absent, null or empty means the default room (`service`). */
export function roomOf(ctx: { options: Pick<ResolvedHostOptions, 'defaultRoomId'> }, raw: string | null | undefined): string {
  return raw ? raw : ctx.options.defaultRoomId;
}

/** A progress `since` its schema let through (an integer as text); absent or empty means -1, every message. */
export function parseSince(raw: string | undefined): number {
  if (raw === undefined || raw.trim() === '') return -1;
  return Number.parseInt(raw, 10);
}

/**
 * The query's `since` as text, refused (400) when given in a list's form (`since[]=1`,
 * `since[0]=1`): such a key is not `since`, and reading it as absent would quietly start over.
 */
export function sinceQuery(query: Record<string, unknown>): string | undefined {
  const listed = Object.keys(query).find((key) => key.startsWith('since['));
  if (listed !== undefined) throw createHostError('SPC_ERR_SINCE_INVALID', `${listed}=${String(query[listed])}`, 'given once, as since=N');
  return query.since as string | undefined;
}

/** Digits only: a whole number from 0. */
export const WHOLE = /^\d{1,15}$/;

/** Entries a page of a log holds when `limit` is not given. */
const DEFAULT_PAGE = 1000;

/**
 * A page of a log the query asks for: after `since` (absent: from the start), a whole number from 0
 * (the seq of the last `what` read), at most `limit` (absent: 1000), a whole number from 1.
 */
export function pageQuery(query: { since?: string; limit?: string }, what: string): { since: number; limit: number } {
  const since = sinceQuery(query);
  if (since !== undefined && !WHOLE.test(since.trim()))
    throw createHostError('SPC_ERR_SINCE_INVALID', since, `a whole number from 0 (the seq of the last ${what} read)`);
  const limit = query.limit;
  if (limit !== undefined && (!WHOLE.test(limit.trim()) || Number(limit) < 1))
    throw createHostError('SPC_ERR_LOG_QUERY_INVALID', 'a whole number from 1', limit);
  return { since: since === undefined ? 0 : Number(since), limit: limit === undefined ? DEFAULT_PAGE : Number(limit) };
}
