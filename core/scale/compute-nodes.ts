/**
 * @module compute-nodes
 * Which compute nodes are alive and what they can run. Each node (a `vitrine worker`, or a
 * host with `--compute` above 0) writes a heartbeat every 2 s: its id in a sorted set scored
 * by when it expires, and the set of its function names. Hosts ask `canRun(fn)` before
 * queueing, so a request no live node can serve is a 503 naming the function at once,
 * not a job that waits forever; a yes is remembered for one second.
 */
import type { Redis } from 'ioredis';
import { KEYS } from './redis-keys.ts';

export const HEARTBEAT_MS = 2000;
/** A node missing this long is gone (three heartbeats). */
export const NODE_EXPIRY_MS = 3 * HEARTBEAT_MS;
const ANSWER_MS = 1000;

/** A node's side: keeps its heartbeat going until stopped; resolves once the first beat is in. */
export async function startHeartbeat(redis: Redis, nodeId: string, functions: () => string[]): Promise<{ beat(): Promise<void>; stop(): Promise<void> }> {
  const beat = async () => {
    const names = functions();
    const pipeline = redis.multi().del(KEYS.nodeFunctions(nodeId));
    if (names.length > 0) pipeline.sadd(KEYS.nodeFunctions(nodeId), ...names);
    pipeline.pexpire(KEYS.nodeFunctions(nodeId), NODE_EXPIRY_MS).zadd(KEYS.nodes, Date.now() + NODE_EXPIRY_MS, nodeId);
    await pipeline.exec();
  };
  const timer = setInterval(() => void beat().catch(() => {}), HEARTBEAT_MS);
  timer.unref();
  await beat().catch(() => {});
  return {
    beat: () => beat().catch(() => {}),
    async stop() {
      clearInterval(timer);
      await redis.multi().zrem(KEYS.nodes, nodeId).del(KEYS.nodeFunctions(nodeId)).exec().catch(() => {});
    },
  };
}

/** A host's side: can any live node run `fn`? */
export class NodeDirectory {
  #redis: Redis;
  #answers = new Map<string, { at: number }>();

  constructor(redis: Redis) {
    this.#redis = redis;
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
