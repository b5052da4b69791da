/**
 * @module redis-health
 * Whether the service's Redis answers, judged by a PING every second on the request-path
 * connection rather than by the connection's state alone: a Redis that stalls (a long
 * command, a stopped process) keeps its connection open while answering nothing, and a host
 * must stop calling itself ready then. Each time Redis answers again after not answering (and
 * at the first answer), the host reads its `maxmemory-policy` and warns unless it is
 * `noeviction`, and for a while after, the node directory does not take missing heartbeats
 * for dead nodes: they could not be written while Redis was away.
 */
import type { Redis } from 'ioredis';
import { redactUrl } from '../redact-credentials.ts';

/** How often Redis is asked to answer. */
const PING_MS = 1000;
/** With no answer for this long, Redis counts as not answering. */
const SILENT_MS = 2500;
/** Where the policy warning goes. */
export interface HealthLog {
  warn(message: string): void;
}

export class RedisHealth {
  #redis: Redis;
  #url: string;
  #log: HealthLog;
  #settleMs: number;
  #timer: NodeJS.Timeout | null = null;
  #pinging = false;
  #lastAnswer = 0;
  #answering = false;
  /** Set once a ping has failed: the next answer is a return, not a first meeting. */
  #missed = false;
  #unsureUntil = 0;

  /**
   * @param settleMs after Redis answers again, how long {@link settled} stays false: the
   *   service's heartbeat period and more (scale/compute-nodes.ts `SETTLE_MS`)
   */
  constructor(redis: Redis, url: string, log: HealthLog, settleMs: number) {
    this.#redis = redis;
    // Shown in /readyz and logs: without its password.
    this.#url = redactUrl(url);
    this.#log = log;
    this.#settleMs = settleMs;
  }

  start(): void {
    this.#timer = setInterval(() => void this.#ping(), PING_MS).unref();
    // A restart quicker than a ping period shows only as a new connection: a return all the same.
    this.#redis.on('ready', this.#onReconnect);
    void this.#ping();
  }

  #onReconnect = (): void => {
    if (!this.#answering) return; // the next ping answers, and counts the return
    this.#unsureUntil = Date.now() + this.#settleMs;
    void this.#checkPolicy();
  };

  async #ping(): Promise<void> {
    if (this.#pinging) return;
    this.#pinging = true;
    try {
      await this.#redis.ping();
      this.#lastAnswer = Date.now();
      if (!this.#answering) {
        this.#answering = true;
        if (this.#missed) this.#unsureUntil = Date.now() + this.#settleMs;
        void this.#checkPolicy();
      }
    } catch {
      this.#answering = false;
      this.#missed = true;
    } finally {
      this.#pinging = false;
    }
  }

  /** Warns when Redis may evict the service's control keys. */
  async #checkPolicy(): Promise<void> {
    let policy: string | undefined;
    try {
      policy = ((await this.#redis.config('GET', 'maxmemory-policy')) as string[])[1];
    } catch {
      return; // CONFIG may be disabled (a managed Redis): nothing to read, nothing to say
    }
    if (policy && policy !== 'noeviction') {
      this.#log.warn(
        `Redis at ${this.#url} has maxmemory-policy '${policy}': it may evict the service's rooms, computations, jobs, node heartbeats and work queue, ` +
          `so requests fail while workers are alive; set maxmemory-policy noeviction there, and give result bytes a Redis of their own with --blob-store ` +
          `(any policy)`,
      );
    }
  }

  /** Null while Redis answers, else why not (for /readyz). */
  notReady(): string | null {
    if (this.#redis.status !== 'ready') return `Redis at ${this.#url} is not connected (${this.#redis.status})`;
    const silent = Date.now() - this.#lastAnswer;
    if (this.#lastAnswer === 0) return `Redis at ${this.#url} has not answered yet`;
    if (silent > SILENT_MS) return `Redis at ${this.#url} has not answered for ${(silent / 1000).toFixed(1)} s`;
    return null;
  }

  /**
   * Whether "no heartbeat" may be taken for "no live node" now: not while Redis is away nor
   * for `settleMs` after it answers again.
   */
  settled(): boolean {
    return this.#answering && Date.now() >= this.#unsureUntil;
  }

  close(): void {
    this.#redis.off('ready', this.#onReconnect);
    if (this.#timer) clearInterval(this.#timer);
    this.#timer = null;
  }
}
