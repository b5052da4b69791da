/**
 * @module compute-nodes
 * Which compute nodes are alive and what they can run. Each node (a `vitrine worker`, or a
 * host with `--compute` above 0) writes a heartbeat every 2 s: its id in a sorted set scored
 * by when it expires, and the set of its function names. Hosts ask `canRun(fn)` before
 * queueing, so a request no live node can serve is a 503 naming the function at once,
 * not a job that waits forever; a yes is remembered for one second. A node cannot write its
 * heartbeat while Redis is away, so a host takes "no heartbeat" for "no node" only once Redis
 * has answered again for a heartbeat period and more (redis/redis-health.ts `settled`); until then a
 * request waits for a node's next heartbeat rather than failing.
 */
import type { Redis } from 'ioredis';
import { KEYS } from '../redis/redis-keys.ts';

export const HEARTBEAT_MS = 2000;
/** A node missing this long is gone (three heartbeats). */
export const NODE_EXPIRY_MS = 3 * HEARTBEAT_MS;
/**
 * After Redis answers again, how long a missing heartbeat does not mean a node is gone: a
 * heartbeat period, plus the time a node's own connection may take to come back.
 */
export const SETTLE_MS = HEARTBEAT_MS + 2000;
const ANSWER_MS = 1000;
/** How often a request waiting for a node's heartbeat looks again. */
const LOOK_AGAIN_MS = 250;

/** Whether Redis has answered long enough for missing heartbeats to mean missing nodes. */
export interface HeartbeatTrust {
  settled(): boolean;
}

const ALWAYS_SETTLED: HeartbeatTrust = { settled: () => true };

/** A node's side: keeps its heartbeat going until stopped; resolves once the first beat is in. */
export async function startHeartbeat(redis: Redis, nodeId: string, functions: () => string[]): Promise<{ beat(): Promise<void>; stop(): Promise<void> }> {
  const beat = async () => {
    const names = functions();
    const pipeline = redis.multi().del(KEYS.nodeFunctions(nodeId));
    if (names.length > 0) pipeline.sadd(KEYS.nodeFunctions(nodeId), ...names);
    pipeline.pexpire(KEYS.nodeFunctions(nodeId), NODE_EXPIRY_MS).zadd(KEYS.nodes, Date.now() + NODE_EXPIRY_MS, nodeId);
    await pipeline.exec();
  };
  const timer = setInterval(() => void beat().catch(() => {}), HEARTBEAT_MS).unref();
  // Back from an outage, the node says it is alive at once, not at its next period.
  const onReady = () => void beat().catch(() => {});
  redis.on('ready', onReady);
  await beat().catch(() => {});
  return {
    beat: () => beat().catch(() => {}),
    async stop() {
      clearInterval(timer);
      redis.off('ready', onReady);
      await redis.multi().zrem(KEYS.nodes, nodeId).del(KEYS.nodeFunctions(nodeId)).exec().catch(() => {});
    },
  };
}

/** A host's side: can any live node run `fn`? */
export class NodeDirectory {
  #redis: Redis;
  #trust: HeartbeatTrust;
  #answers = new Map<string, { at: number }>();

  constructor(redis: Redis, trust: HeartbeatTrust = ALWAYS_SETTLED) {
    this.#redis = redis;
    this.#trust = trust;
  }

  /** Whether a "no" from {@link canRun} may be believed now (see the module comment). */
  settled(): boolean {
    return this.#trust.settled();
  }

  /** Like {@link canRun}, but while a no cannot be believed yet, looks again until it can. */
  async willRun(fn: string): Promise<boolean> {
    const deadline = Date.now() + 4 * HEARTBEAT_MS;
    for (;;) {
      if (await this.canRun(fn)) return true;
      if (this.settled() || Date.now() > deadline) return false;
      await new Promise((resolve) => setTimeout(resolve, LOOK_AGAIN_MS));
    }
  }

  async canRun(fn: string): Promise<boolean> {
    const now = Date.now();
    const known = this.#answers.get(fn);
    // Only a yes is remembered: a node that just came up is found at once.
    if (known && now - known.at < ANSWER_MS) return true;
    const live = await this.#redis.zrangebyscore(KEYS.nodes, now, '+inf');
    let yes = false;
    if (live.length > 0) {
      const pipeline = this.#redis.pipeline();
      for (const id of live) pipeline.sismember(KEYS.nodeFunctions(id), fn);
      yes = ((await pipeline.exec()) ?? []).some(([error, member]) => !error && member === 1);
    }
    if (this.#answers.size > 10_000) this.#answers.clear();
    if (yes) this.#answers.set(fn, { at: now });
    else this.#answers.delete(fn);
    return yes;
  }
}

/**
 * Notices compute nodes leaving the service (stopped, or their heartbeat lapsed) for a host
 * that has something to re-read when one does: a job whose node died ends only once someone
 * reads it and finds no live node for its function. It costs one Redis command per heartbeat
 * period, and only while the host has such watchers.
 */
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
