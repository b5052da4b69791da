/**
 * @module ready-subscription
 * Keeps a pub/sub connection subscribed to its channels, sending SUBSCRIBE only on a connection
 * that is ready, and again each time it is ready after a reconnection. ioredis checks a new
 * connection with an INFO before it calls it ready, but sends a SUBSCRIBE made in the meantime
 * at once (Redis takes it while loading). Its answer can put the connection in subscriber mode
 * before the INFO goes out (the more likely the later the process reads the replies, as under
 * load): the check then fails, ioredis reconnects, and since the connection never was ready it
 * does not subscribe again, though the first SUBSCRIBE's promise resolved. Such a connection
 * hears nothing for good (ioredis 5.8.2 and later 5.x: redis/ioredis#2037; 6.0 waits for the
 * handshake itself, and this stays right there). `onSubscribed` runs once Redis has answered
 * each SUBSCRIBE: from then on nothing published is missed, so a re-read of durable state made
 * then misses no change.
 */
import type { Redis } from 'ioredis';

/**
 * Subscribes `redis` to `channels` now if it is ready, else once it is, and again at every
 * later 'ready'. Resolves after the first subscription is answered (a caller bounds the wait).
 */
export function subscribeWhenReady(redis: Redis, channels: string[], onSubscribed: () => void): Promise<void> {
  let first: () => void = () => {};
  const subscribed = new Promise<void>((resolve) => (first = resolve));
  const subscribe = () =>
    void redis.subscribe(...channels).then(
      () => {
        onSubscribed();
        first();
      },
      // The connection went away before Redis answered: its next 'ready' subscribes again.
      () => {},
    );
  redis.on('ready', subscribe);
  if (redis.status === 'ready') subscribe();
  return subscribed;
}
