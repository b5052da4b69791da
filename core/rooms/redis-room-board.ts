/**
 * @module redis-room-board
 * A room's view and shown static specimen on a Redis service: one key each, so every host
 * answers the same, and room events published through the service's room channel, so every
 * host's streams of the room get them (this host's too, through its own subscription).
 */
import type { Redis } from 'ioredis';
import type { RoomBoard, ShownSpecimen } from './room-board.ts';
import { readStoredView, type RoomView } from './room-view.ts';
import { roomEventMessage } from '../redis/redis-events.ts';
import { CHANNELS, KEYS } from '../redis/redis-keys.ts';
import { orUnavailable } from '../redis/redis-unavailable.ts';

/** How long a room's view is kept after its last change. */
const VIEW_TTL_MS = 7 * 24 * 3600 * 1000;

export class RedisRoomBoard implements RoomBoard {
  #redis: Redis;
  #shownTtlMs: number;

  constructor(redis: Redis, shownTtlSeconds: number) {
    this.#redis = redis;
    this.#shownTtlMs = Math.max(1, shownTtlSeconds * 1000);
  }

  async view(roomId: string): Promise<RoomView> {
    const raw = await orUnavailable(this.#redis.get(KEYS.roomView(roomId)));
    if (!raw) return {};
    try {
      return readStoredView(JSON.parse(raw));
    } catch {
      return {};
    }
  }

  async setView(roomId: string, view: RoomView): Promise<void> {
    if (Object.keys(view).length === 0) await orUnavailable(this.#redis.del(KEYS.roomView(roomId)));
    else await orUnavailable(this.#redis.set(KEYS.roomView(roomId), JSON.stringify(view), 'PX', VIEW_TTL_MS));
  }

  async shown(roomId: string): Promise<ShownSpecimen | null> {
    const raw = await orUnavailable(this.#redis.get(KEYS.roomShown(roomId)));
    if (!raw) return null;
    try {
      const value = JSON.parse(raw) as Partial<ShownSpecimen>;
      if (typeof value.specimen_id !== 'string' || typeof value.type !== 'string' || typeof value.since !== 'number') return null;
      return { specimen_id: value.specimen_id, type: value.type, since: value.since };
    } catch {
      return null;
    }
  }

  async setShown(roomId: string, shown: ShownSpecimen): Promise<void> {
    await orUnavailable(this.#redis.set(KEYS.roomShown(roomId), JSON.stringify(shown), 'PX', this.#shownTtlMs));
  }

  async clearShown(roomId: string): Promise<boolean> {
    return (await orUnavailable(this.#redis.del(KEYS.roomShown(roomId)))) > 0;
  }

  async announce(roomId: string, event: string, data: unknown): Promise<void> {
    await orUnavailable(this.#redis.publish(CHANNELS.room, roomEventMessage(roomId, event, data)));
  }
}
