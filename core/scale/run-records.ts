/**
 * @module run-records
 * How long each function's runs take across a Redis service, for the queue's short lane. Every
 * compute node writes the length of each run it finishes (the call itself, from the moment
 * its thread starts the function) to a short list per function; a host queueing a
 * computation reads it to choose the lane. The rule is the one a lone host's scheduler
 * follows (invoke/run-durations.ts): a function is short while at least half of its last few
 * runs took under 250 ms. A function no node has timed yet goes by the short lane one run at
 * a time (a trial that lasts until its run is recorded): that run teaches the rest, so a burst
 * of an unknown long function puts at most one of its runs in the lane, however long the burst.
 * The trial lapses after a few seconds unless a node running the function renews it, so one
 * whose run never started, or whose node died, does not hold the function out for ever.
 */
import type { Redis } from 'ioredis';
import { mostlyShort } from '../invoke/run-durations.ts';
import { KEYS } from '../redis/redis-keys.ts';

/** Runs remembered per function. */
const REMEMBERED_RUNS = 4;
/** How long the records of a function no node runs any more are kept. */
const RECORD_TTL_S = 24 * 3600;
/** How long a trial of an untimed function holds the short lane for it unless renewed. */
const TRIAL_MS = 5000;
/** How long a host reuses what it read about a function (a slider drag reads it once). */
const READ_REUSE_MS = 500;

export class RunRecords {
  #redis: Redis;
  #read = new Map<string, { at: number; runs: number[] }>();

  constructor(redis: Redis) {
    this.#redis = redis;
  }

  /** Notes a run of `fn` that took `ms` (a cancelled run only when it was already long). */
  async record(fn: string, ms: number): Promise<void> {
    await this.#redis
      .multi()
      .lpush(KEYS.runs(fn), Math.round(ms))
      .ltrim(KEYS.runs(fn), 0, REMEMBERED_RUNS - 1)
      .expire(KEYS.runs(fn), RECORD_TTL_S)
      .del(KEYS.runTrial(fn))
      .exec();
  }

  /** Renews the trials of `fns`, functions with runs in flight here (a no-op for those with none). */
  async holdTrials(fns: Iterable<string>): Promise<void> {
    const pipeline = this.#redis.pipeline();
    for (const fn of new Set(fns)) pipeline.pexpire(KEYS.runTrial(fn), TRIAL_MS);
    await pipeline.exec();
  }

  /** Whether a computation of `fn` queued now goes by the short lane. */
  async isShort(fn: string): Promise<boolean> {
    const runs = await this.#runs(fn);
    if (runs.length > 0) return mostlyShort(runs);
    // Never timed: one trial at a time across the service.
    return (await this.#redis.set(KEYS.runTrial(fn), '1', 'PX', TRIAL_MS, 'NX')) === 'OK';
  }

  async #runs(fn: string): Promise<number[]> {
    const now = Date.now();
    const known = this.#read.get(fn);
    if (known && now - known.at < READ_REUSE_MS && known.runs.length > 0) return known.runs;
    const runs = (await this.#redis.lrange(KEYS.runs(fn), 0, REMEMBERED_RUNS - 1)).map(Number);
    // A few entries per function the service runs: the map stays as small as the catalog.
    this.#read.set(fn, { at: now, runs });
    return runs;
  }
}
