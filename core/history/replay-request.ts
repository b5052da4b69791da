/**
 * @module replay-request
 * What `POST /api/rooms/{room}/replay` may ask, checked field by field (each bad field a 400
 * naming it): play another room (`from`, `since`, `until`, `speed`), set this room to another's
 * state at a moment (`from`, `at`), or steer the replay playing (`pause`, `seek`, `speed`).
 */
import { createHostError } from '../errors.ts';

export const MIN_SPEED = 0.5;
export const MAX_SPEED = 4;

export type ReplayAsk =
  | { kind: 'play'; from: string; since: number; until: number | null; speed: number }
  | { kind: 'jump'; from: string; at: number }
  | { kind: 'steer'; pause?: boolean; seek?: number; speed?: number };

const bad = (field: string, why: string) => createHostError('SPC_ERR_REPLAY_INVALID', field, why);
const KNOWN = ['from', 'since', 'until', 'speed', 'at', 'pause', 'seek'];

function seq(body: Record<string, unknown>, field: string): number | undefined {
  const value = body[field];
  if (value === undefined || value === null) return undefined;
  if (!Number.isSafeInteger(value) || (value as number) < 0) throw bad(field, 'must be a log seq (a whole number from 0)');
  return value as number;
}

function speedOf(body: Record<string, unknown>): number | undefined {
  const value = body.speed;
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'number' || !Number.isFinite(value) || value < MIN_SPEED || value > MAX_SPEED) {
    throw bad('speed', `must be a number from ${MIN_SPEED} to ${MAX_SPEED}`);
  }
  return value;
}

/**
 * How far past the host's clock a moment may be: a client's clock a little ahead still names
 * now, while a moment further on is one no log has reached (1e20 is no time at all).
 */
export const CLOCK_SLACK_MS = 60_000;

function time(body: Record<string, unknown>, field: string, now: number): number | undefined {
  const value = body[field];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'number' || !Number.isFinite(value) || value < 0) throw bad(field, 'must be a time in host milliseconds since the epoch');
  if (value > now + CLOCK_SLACK_MS) throw bad(field, `must be a moment that has come (host milliseconds since the epoch, now ${now}), not ${value}`);
  return value;
}

/** The ask `body` makes of room `roomId`. */
export function checkReplayAsk(body: unknown, roomId: string, now = Date.now()): ReplayAsk {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw bad('body', 'must be a JSON object');
  const fields = body as Record<string, unknown>;
  const unknown = Object.keys(fields).find((key) => !KNOWN.includes(key));
  if (unknown) throw bad(unknown.slice(0, 40), `is not a replay field (${KNOWN.join(', ')})`);
  const speed = speedOf(fields);
  if (fields.from === undefined) {
    if (fields.pause !== undefined && typeof fields.pause !== 'boolean') throw bad('pause', 'must be true or false');
    const seek = time(fields, 'seek', now);
    if (fields.pause === undefined && seek === undefined && speed === undefined) {
      throw bad('from', 'is required (the room to play), or steer with pause, seek or speed');
    }
    const pause = fields.pause as boolean | undefined;
    return { kind: 'steer', ...(pause !== undefined ? { pause } : {}), ...(seek !== undefined ? { seek } : {}), ...(speed ? { speed } : {}) };
  }
  if (typeof fields.from !== 'string' || fields.from === '' || fields.from.length > 256) throw bad('from', 'must name a room');
  if (fields.from === roomId) throw bad('from', 'must name another room than the one played into');
  const at = time(fields, 'at', now);
  if (at !== undefined) return { kind: 'jump', from: fields.from, at };
  const since = seq(fields, 'since') ?? 0;
  const until = seq(fields, 'until') ?? null;
  if (until !== null && until <= since) throw bad('until', 'must come after since');
  return { kind: 'play', from: fields.from, since, until, speed: speed ?? 1 };
}
