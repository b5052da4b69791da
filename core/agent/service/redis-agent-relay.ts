/**
 * @module redis-agent-relay
 * The agent relay of a Redis service (agent-relay.ts): each host listens on a channel of its own,
 * on a pub/sub connection given to it alone, and a message is one binary frame (its JSON as the
 * header, the bytes it carries as the payload), so a screenshot crosses hosts as it came. Pub/sub
 * keeps the order of one sender's messages to one receiver, which is what keeps a room's frames
 * in order. Whether a host still listens is asked of Redis (the subscription of a host that dies
 * goes with its connection), so its sockets leave their rooms within the next check.
 */
import { randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';
import { CHANNELS, KEYS } from '../../redis/redis-keys.ts';
import type { ScriptedRedis } from '../../redis/redis-scripts.ts';
import { orUnavailable } from '../../redis/redis-unavailable.ts';
import { LEASE_MS, type AgentRelay, type RelayListener, type RelayMessage } from './agent-relay.ts';
import { FrameProblem } from '../agent-frames.ts';
import { decodeBinary, encodeBinary } from '../binary-frame.ts';

export class RedisAgentRelay implements AgentRelay {
  readonly self = randomUUID();
  #redis: ScriptedRedis;
  #subscriber: Redis;
  #listeners: RelayListener[] = [];

  /** `redis`: a command connection; `subscriber`: a connection given to this relay alone. */
  constructor(redis: ScriptedRedis, subscriber: Redis) {
    this.#redis = redis;
    this.#subscriber = subscriber;
    this.#subscriber.on('messageBuffer', (_channel: Buffer, message: Buffer) => this.#dispatch(message));
    // It reconnects and subscribes again by itself; Redis going away shows in the host's readiness.
    this.#subscriber.on('error', () => {});
  }

  /** Subscribes; resolves once Redis answers. */
  async start(): Promise<void> {
    await this.#subscriber.subscribe(CHANNELS.agentHost(this.self));
  }

  #dispatch(data: Buffer): void {
    const frame = decodeBinary(data);
    if (frame instanceof FrameProblem) return;
    for (const listener of this.#listeners) listener(frame.header as unknown as RelayMessage, frame.payload);
  }

  async holder(roomId: string): Promise<string | null> {
    return orUnavailable(this.#redis.get(KEYS.agentOwner(roomId)));
  }

  async claim(roomId: string, gone = ''): Promise<string> {
    return String(await orUnavailable(this.#redis.vAgentClaim(roomId, this.self, LEASE_MS, gone)));
  }

  async renew(roomIds: string[]): Promise<string[]> {
    if (roomIds.length === 0) return [];
    return (await this.#redis.vAgentRenew(LEASE_MS, this.self, ...roomIds)) as string[];
  }

  async release(roomId: string): Promise<void> {
    await this.#redis.vAgentRelease(roomId, this.self).catch(() => {});
  }

  send(host: string, message: RelayMessage, payload?: Uint8Array): void {
    this.deliver(host, message, payload).catch(() => {});
  }

  async deliver(host: string, message: RelayMessage, payload: Uint8Array = Buffer.alloc(0)): Promise<void> {
    await orUnavailable(this.#redis.publish(CHANNELS.agentHost(host), encodeBinary(message as unknown as Record<string, unknown>, payload)));
  }

  async listening(hosts: string[]): Promise<Set<string>> {
    if (hosts.length === 0) return new Set();
    const counts = (await this.#redis.call('PUBSUB', 'NUMSUB', ...hosts.map((host) => CHANNELS.agentHost(host)))) as (string | number)[];
    return new Set(hosts.filter((_, i) => Number(counts[2 * i + 1]) > 0));
  }

  onMessage(listener: RelayListener): void {
    this.#listeners.push(listener);
  }

  async close(): Promise<void> {
    this.#subscriber.disconnect();
  }
}
