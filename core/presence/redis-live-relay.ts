/**
 * @module redis-live-relay
 * Poses across a Redis service's hosts, on a pub/sub connection of their own (so a room's
 * poses never queue behind its other events): one message per pose, `room \n sender \n host
 * \n frame`, so a receiving host splits it without parsing the frame, and skips its own.
 */
import { randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';
import { CHANNELS } from '../redis/redis-keys.ts';
import type { LiveRelay, RelayedFrame } from './live-relay.ts';

export class RedisLiveRelay implements LiveRelay {
  #publisher: Redis;
  #subscriber: Redis;
  #self = randomUUID();
  #listeners: RelayedFrame[] = [];

  /** `publisher`: a command connection; `subscriber`: a connection given to this relay alone. */
  constructor(publisher: Redis, subscriber: Redis) {
    this.#publisher = publisher;
    this.#subscriber = subscriber;
    this.#subscriber.on('message', (_channel: string, message: string) => this.#dispatch(message));
    // Redis going away shows in the host's readiness (and its other connections' logs); this one
    // reconnects and subscribes again by itself, so its errors are no news of their own.
    this.#subscriber.on('error', () => {});
  }

  /** Subscribes; resolves once Redis answers (a host started while Redis is down does not wait for it). */
  async start(): Promise<void> {
    await this.#subscriber.subscribe(CHANNELS.live);
  }

  #dispatch(message: string): void {
    const a = message.indexOf('\n');
    const b = message.indexOf('\n', a + 1);
    const c = message.indexOf('\n', b + 1);
    if (a < 0 || b < 0 || c < 0 || message.slice(b + 1, c) === this.#self) return;
    for (const listener of this.#listeners) listener(message.slice(0, a), message.slice(a + 1, b), message.slice(c + 1));
  }

  publish(roomId: string, sender: string, frame: string): void {
    this.#publisher.publish(CHANNELS.live, `${roomId}\n${sender}\n${this.#self}\n${frame}`).catch(() => {});
  }

  onFrame(listener: RelayedFrame): void {
    this.#listeners.push(listener);
  }

  async close(): Promise<void> {
    this.#subscriber.disconnect();
  }
}
