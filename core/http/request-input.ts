/**
 * @module request-input
 * Reading the parts of a request every route group shares, once their route schemas have
 * checked them (route-inputs.ts): the room id and a progress `since`.
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
