/**
 * @module redis-events
 * Pub/sub fan-out for a Redis service, on the subscriber connection: room events reach this
 * host's EventHub channel `room:{id}` (so its room event streams serve every host's changes),
 * nudges (a computation or job may have changed) reach whoever watches that id (the hub's
 * channel `nudge:{id}`), and cancels reach the compute node running the computation. One
 * subscription serves every watcher of the host, so a watcher costs Redis nothing while
 * nothing changes. Pub/sub loses what is published while a connection is down, so once the
 * subscriptions are back after every reconnection each watcher is nudged once: it re-reads
 * the durable state, and a lost message costs one read. Relayed workers' registrations changing
 * reach the hosts that list them (scale/relay-mirror.ts); users removed reach the hosts whose
 * streams and sockets they kept open (people/room-readers.ts); rooms' entries and access
 * changing reach what a host holds of them (scale/room-pointers.ts, people/redis-access-store.ts).
 */
import type { Redis } from 'ioredis';
import type { EventHub, HostEvent } from '../events/event-hub.ts';
import { ROOM_CHANNEL_PREFIX, ROOM_RESYNC, roomChannel } from '../events/channels.ts';
import { CHANNELS } from './redis-keys.ts';
import { storedJson } from './stored-json.ts';
import { waitAtMost } from './time-limit.ts';
import { roomEventOf } from '../events/layer-slots.ts';
import { stampedData } from '../events/acting-user.ts';

/** The host EventHub channels of nudges: `nudge:{id}`. */
const NUDGE = 'nudge:';
const NUDGE_EVENT = { event: 'nudge', data: null };

/** A room event as it crosses Redis. */
export type RoomEventMessage = Pick<HostEvent, 'event' | 'data'> & { room: string };

export class RedisEvents {
  #subscriber: Redis;
  #hub: EventHub;
  #cancelListeners = new Set<(cid: string) => void>();
  #resubscribeListeners = new Set<() => void>();
  #pointerListeners = new Set<(room: string) => void>();
  #accessListeners = new Set<(room: string) => void>();
  #relayListeners = new Set<(workerId: string) => void>();
  #usersListeners = new Set<() => void>();
  /** Set once the first subscription is in: later connections are reconnections. */
  #subscribed = false;
  /** True while the subscriptions are in: nothing published now is lost to this host. */
  #live = false;

  constructor(subscriber: Redis, hub: EventHub) {
    this.#subscriber = subscriber;
    this.#hub = hub;
  }

  /** Subscribes; resolves once subscribed, or after `waitMs` while Redis is away (it subscribes when Redis comes). */
  async start(waitMs = 5000): Promise<void> {
    this.#subscriber.on('message', (channel: string, message: string) => this.#dispatch(channel, message));
    // Whatever was published while the connection was away (or before it first subscribed)
    // is lost: every watcher re-reads once Redis has answered each subscription, the first
    // and those after every reconnection, so a re-read then misses nothing published later.
    // A host answers only once subscribed, so no event of a request it serves falls before.
    this.#subscriber.on('close', () => void (this.#live = false));
    const channels = [CHANNELS.room, CHANNELS.nudge, CHANNELS.cancel, CHANNELS.pointer, CHANNELS.access, CHANNELS.relay, CHANNELS.users];
    const subscribed = subscribeWhenReady(this.#subscriber, channels, () => {
      const again = this.#subscribed;
      this.#subscribed = true;
      this.#resubscribed(again);
    });
    await waitAtMost(subscribed, waitMs);
  }

  #resubscribed(again: boolean): void {
    this.#live = true;
    for (const listener of this.#resubscribeListeners) listener();
    // A user removed while the subscription was away was not heard of: every watcher looks again.
    if (again) for (const listener of this.#usersListeners) listener();
    this.nudgeAll();
    // Room streams cannot re-read: they close, and their clients reconnect to a fresh `state`.
    if (again) for (const channel of this.#hub.channels(ROOM_CHANNEL_PREFIX)) this.#hub.publish(channel, { event: ROOM_RESYNC, data: null });
  }

  /** Whether messages published now reach this host (false while the subscription is away). */
  get listening(): boolean {
    return this.#live;
  }

  /** Calls `listener` each time the subscriptions are back in after a (re)connection. */
  onResubscribed(listener: () => void): () => void {
    this.#resubscribeListeners.add(listener);
    return () => this.#resubscribeListeners.delete(listener);
  }

  #dispatch(channel: string, message: string): void {
    if (channel === CHANNELS.nudge) this.#nudge(message);
    else if (channel === CHANNELS.cancel) for (const listener of this.#cancelListeners) listener(message);
    else if (channel === CHANNELS.pointer) for (const listener of this.#pointerListeners) listener(message);
    else if (channel === CHANNELS.access) for (const listener of this.#accessListeners) listener(message);
    else if (channel === CHANNELS.relay) for (const listener of this.#relayListeners) listener(message);
    else if (channel === CHANNELS.users) for (const listener of this.#usersListeners) listener();
    else if (channel === CHANNELS.room) {
      const parsed = storedJson(message) as RoomEventMessage | null;
      if (typeof parsed?.room !== 'string' || typeof parsed.event !== 'string') return;
      // A layer's cache slot speaks to its room's streams, naming the layer.
      const target = roomEventOf(parsed.room, { event: parsed.event, data: parsed.data });
      if (target) this.#hub.publish(roomChannel(target.room), target.event);
    }
  }

  /** Nudges every watcher of this host once (each re-reads its durable state). */
  nudgeAll(): void {
    for (const channel of this.#hub.channels(NUDGE)) this.#hub.publish(channel, NUDGE_EVENT);
  }

  #nudge(id: string): void {
    this.#hub.publish(`${NUDGE}${id}`, NUDGE_EVENT);
  }

  /** Calls `onChange` whenever `id` (a computation or job) may have changed; returns the unsubscribe. */
  watch(id: string, onChange: () => void): () => void {
    return this.#hub.subscribe(`${NUDGE}${id}`, () => onChange());
  }

  /** Calls `listener` with each room id whose entry changed (`*`: every room). */
  onPointerChange(listener: (room: string) => void): () => void {
    this.#pointerListeners.add(listener);
    return () => this.#pointerListeners.delete(listener);
  }

  /** Calls `listener` with each room id whose access changed. */
  onAccessChange(listener: (room: string) => void): () => void {
    this.#accessListeners.add(listener);
    return () => this.#accessListeners.delete(listener);
  }

  /** Calls `listener` with each relayed worker id whose registration changed or went. */
  onRelayChange(listener: (workerId: string) => void): () => void {
    this.#relayListeners.add(listener);
    return () => this.#relayListeners.delete(listener);
  }

  /** Calls `listener` each time a user of the service was removed, or may have been while this host was not listening. */
  onUsersChanged(listener: () => void): () => void {
    this.#usersListeners.add(listener);
    return () => this.#usersListeners.delete(listener);
  }

  /** Calls `listener` with each computation id whose run must stop. */
  onCancel(listener: (cid: string) => void): () => void {
    this.#cancelListeners.add(listener);
    return () => this.#cancelListeners.delete(listener);
  }
}

/**
 * Subscribes `redis` to `channels` now if it is ready, else once it is, and again at every
 * later 'ready'. Resolves after the first subscription is answered (a caller bounds the wait).
 *
 * SUBSCRIBE goes only on a connection that is ready. ioredis checks a new connection with an
 * INFO before it calls it ready, but sends a SUBSCRIBE made in the meantime at once (Redis takes
 * it while loading). Its answer can put the connection in subscriber mode before the INFO goes
 * out (the more likely the later the process reads the replies, as under load): the check then
 * fails, ioredis reconnects, and since the connection never was ready it does not subscribe
 * again, though the first SUBSCRIBE's promise resolved. Such a connection hears nothing for good
 * (ioredis 5.8.2 and later 5.x: redis/ioredis#2037; 6.0 waits for the handshake itself, and this
 * stays right there). `onSubscribed` runs once Redis has answered each SUBSCRIBE: from then on
 * nothing published is missed, so a re-read of durable state made then misses no change.
 */
function subscribeWhenReady(redis: Redis, channels: string[], onSubscribed: () => void): Promise<void> {
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

/** The message publishing `event` for `room`. */
export function roomEventMessage(room: string, event: string, data: unknown): string {
  return JSON.stringify({ room, event, data: stampedData(event, data) } satisfies RoomEventMessage);
}
