/**
 * @module node-departures
 * Notices compute nodes leaving the service (stopped, or their heartbeat lapsed) for a host
 * that has something to re-read when one does: a job whose node died ends only once someone
 * reads it and finds no live node for its function. It costs one Redis command per heartbeat
 * period, and only while the host has such watchers.
 */
import type { Redis } from 'ioredis';
import { HEARTBEAT_MS } from './compute-nodes.ts';
import { KEYS } from '../redis/redis-keys.ts';

export class NodeDepartures {
  #redis: Redis;
  #onLeave: () => void;
  #holders = 0;
  #timer: NodeJS.Timeout | null = null;
  #live: Set<string> | null = null;

  constructor(redis: Redis, onLeave: () => void) {
    this.#redis = redis;
    this.#onLeave = onLeave;
  }

  /** Keeps watching while held; returns the release (calling it twice releases once). */
  hold(): () => void {
    if (this.#holders++ === 0) this.#timer = setInterval(() => void this.#look(), HEARTBEAT_MS).unref();
    let released = false;
    return () => {
      if (released) return;
      released = true;
      if (--this.#holders === 0) this.close();
    };
  }

  async #look(): Promise<void> {
    let ids: string[];
    try {
      ids = await this.#redis.zrangebyscore(KEYS.nodes, Date.now(), '+inf');
    } catch {
      return;
    }
    const live = new Set(ids);
    const before = this.#live;
    this.#live = this.#timer ? live : null;
    if (before && [...before].some((id) => !live.has(id))) this.#onLeave();
  }

  close(): void {
    if (this.#timer) clearInterval(this.#timer);
    this.#timer = null;
    this.#live = null;
  }
}
