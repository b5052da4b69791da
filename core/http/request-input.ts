/**
 * @module request-input
 * Reading the parts of a request every route group shares: a JSON body object, the room id
 * and a progress `since`. Each refusal is a catalogued 400 naming what was wrong.
 */
import { createHostError } from '../errors.ts';
import type { ResolvedHostOptions } from '../options.ts';

/** Longest room id accepted. */
export const MAX_ROOM_ID_LENGTH = 256;

/** A JSON body object (absent means `{}`). */
export function expectBody(body: unknown): Record<string, unknown> {
  if (body === undefined || body === null) return {};
  if (typeof body !== 'object' || Array.isArray(body)) throw createHostError('SPC_ERR_BAD_REQUEST', 'request body must be a JSON object');
  return body as Record<string, unknown>;
}

/** A room id from a request; absent or empty means the default room (`service`). */
export function roomOf(ctx: { options: Pick<ResolvedHostOptions, 'defaultRoomId'> }, raw: unknown): string {
  if (raw === undefined || raw === null || raw === '') return ctx.options.defaultRoomId;
  if (typeof raw !== 'string') throw createHostError('SPC_ERR_BAD_REQUEST', 'room_id must be a string');
  if (raw.length > MAX_ROOM_ID_LENGTH) throw createHostError('SPC_ERR_BAD_REQUEST', `room_id is longer than ${MAX_ROOM_ID_LENGTH} characters`);
  return raw;
}

/** A progress `since`: an integer (a non-integer is a 400); absent means -1, every message. */
export function parseSince(raw: unknown): number {
  if (raw === undefined || raw === '') return -1;
  if (typeof raw !== 'string' || !/^-?\d+$/.test(raw.trim())) throw createHostError('SPC_ERR_SINCE_INVALID', String(raw));
  return Number.parseInt(raw, 10);
}
