/**
 * A host's subscription to the service's events, against a real `redis-server`: started while
 * its connection is still in its handshake (connected, not yet ready: what a loaded host meets
 * at start), it hears what other hosts publish, and hears again after Redis restarts. Each
 * time the subscription is in, the watchers re-read once.
 */
import { once } from 'node:events';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EventHub } from '../../core/events/event-hub.ts';
import { createRedisConnections, type RedisConnections } from '../../core/redis/redis-connections.ts';
import { RedisEvents } from '../../core/redis/redis-events.ts';
import { CHANNELS } from '../../core/redis/redis-keys.ts';
import { startRedis, type RedisServer } from '../helpers/redis-server.ts';
import { waitFor } from '../helpers/wait-for.ts';

let redis: RedisServer;
let publisher: RedisConnections;
let host: RedisConnections;
let events: RedisEvents;
const heard: string[] = [];
let rereads = 0;

/** Publishes `workerId` on the relay channel until the host has heard it (a message may fall before a resubscription). */
async function heardAfterPublishing(workerId: string): Promise<void> {
  await waitFor(async () => {
    await publisher.command.publish(CHANNELS.relay, workerId).catch(() => 0);
    return heard.includes(workerId) ? true : undefined;
  }, `the host to hear ${workerId}`);
}

beforeAll(async () => {
  redis = await startRedis();
  publisher = createRedisConnections(redis.url);
  expect(await publisher.ready(10_000)).toBe(true);
  host = createRedisConnections(redis.url);
  // Connected, its ready check not answered yet: a subscription made now once went in and was
  // then lost for good when the check failed on it.
  await once(host.subscriber, 'connect');
  expect(host.subscriber.status).toBe('connect');
  events = new RedisEvents(host.subscriber, new EventHub());
  events.onRelayChange((workerId) => heard.push(workerId));
  events.onResubscribed(() => void rereads++);
  await events.start(10_000);
});

afterAll(async () => {
  await Promise.all([host?.close(), publisher?.close()]);
  await redis?.stop();
});

describe('the events subscription of a host', () => {
  it('started during the connection’s handshake, hears what is published once it resolves', async () => {
    expect(events.listening).toBe(true);
    const [, count] = (await publisher.command.pubsub('NUMSUB', CHANNELS.relay)) as [string, number];
    expect(count).toBe(1);
    // Subscribed when it resolved: the first message is heard, not lost.
    await publisher.command.publish(CHANNELS.relay, 'w-first');
    await waitFor(() => (heard.includes('w-first') ? true : undefined), 'the first message');
    expect(rereads).toBeGreaterThanOrEqual(1);
  });

  it('subscribes again after Redis restarts, and the watchers re-read once it is in', async () => {
    const before = rereads;
    await redis.restart();
    await heardAfterPublishing('w-after-restart');
    expect(rereads).toBeGreaterThan(before);
    expect(events.listening).toBe(true);
  });
});
