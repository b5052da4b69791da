/**
 * @module redis-room-log
 * Room logs on a Redis service: one sorted set per room (score the seq, member the entry's
 * JSON) beside a head hash, appended by one script (redis/history-scripts.ts) that numbers and
 * stores in a single step, so every host of the service appends into one order. The Redis
 * stores append a change's entry in the very script that makes the change, given what
 * {@link RedisRoomLog.entryArgs} makes of it. Entries past the time-to-live are dropped as the
 * log grows and skipped when read.
 */
import { inTurns } from '../memory/turn-batches.ts';
import { KEYS } from '../redis/redis-keys.ts';
import type { ScriptedRedis } from '../redis/redis-scripts.ts';
import { orUnavailable } from '../redis/redis-unavailable.ts';
import { currentActor } from './request-actor.ts';
import { pageLimit, pageOf, type LogChange, type LogEntry, type LogPage, type RoomLogStore } from './room-log-store.ts';

/** Entries parsed between two turns of the event loop. */
const PARSE_BATCH = 500;

/** The entry's JSON without its opening brace, seq and ts (the script puts those before it); a change's own fields never overwrite them. */
function bodyOf(change: LogChange): string {
  const { seq: _s, ts: _t, by: _b, type: _y, ...fields } = change.change;
  return JSON.stringify({ by: change.by, type: change.type, ...fields }).slice(1);
}

/** What a script appends an entry with (`logAppend`): now (ms), the log's time-to-live, and the entry's body or who made it. */
export type LogArgs = [now: number, ttlMs: number, bodyOrActor: string];

export class RedisRoomLog implements RoomLogStore {
  #redis: ScriptedRedis;
  #ttlMs: number;

  constructor(redis: ScriptedRedis, ttlSeconds: number) {
    this.#redis = redis;
    this.#ttlMs = ttlSeconds * 1000;
  }

  async append(roomId: string, change: LogChange): Promise<LogEntry> {
    const json = await orUnavailable(this.#redis.vLogAppend(roomId, ...this.entryArgs(change)));
    return JSON.parse(String(json)) as LogEntry;
  }

  /** The arguments a script that makes a change appends `change`'s entry with, in the same step. */
  entryArgs(change: LogChange): LogArgs {
    return [Date.now(), this.#ttlMs, bodyOf(change)];
  }

  /** The arguments of a script that makes its entries itself (the marks', whose room version it makes): who makes the change, as JSON. */
  actorArgs(): LogArgs {
    return [Date.now(), this.#ttlMs, JSON.stringify(currentActor())];
  }

  async read(roomId: string, since: number, limit: number): Promise<LogPage> {
    const n = pageLimit(limit);
    const [rows, head] = await orUnavailable(
      Promise.all([
        this.#redis.zrangebyscore(KEYS.roomLog(roomId), `(${Math.max(0, since)}`, '+inf', 'LIMIT', 0, n + 1),
        this.#redis.hget(KEYS.roomLogHead(roomId), 'seq'),
      ]),
    );
    const oldest = Date.now() - this.#ttlMs;
    // Parsed a batch per turn: a page of 10,000 entries is megabytes of JSON.
    const parsed = await inTurns(rows, PARSE_BATCH, (batch) => batch.map((row) => JSON.parse(row) as LogEntry));
    const entries = parsed.flat().filter((entry) => entry.ts >= oldest);
    return pageOf(entries, since, n, Number(head ?? 0));
  }

  async lastSeq(roomId: string): Promise<number> {
    return Number((await orUnavailable(this.#redis.hget(KEYS.roomLogHead(roomId), 'seq'))) ?? 0);
  }

  close(): void {}
}
