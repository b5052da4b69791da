/**
 * @module redis-room-board
 * A room's view and shown static specimen on a Redis service: one key each, so every host
 * answers the same, each set with its log entry by one script, and room events published through the service's room channel, so every
 * host's streams of the room get them (this host's too, through its own subscription).
 */
import type { RedisRoomLog } from '../history/redis-room-log.ts';
import { entryShown, viewChanged } from '../history/room-changes.ts';
import type { ScriptedRedis } from '../redis/redis-scripts.ts';
import type { RoomBoard, ShownSpecimen } from './room-board.ts';
import { readStoredView, type RoomView } from './room-view.ts';
import { roomEventMessage } from '../redis/redis-events.ts';
import { CHANNELS, KEYS } from '../redis/redis-keys.ts';
import { orUnavailable } from '../redis/redis-unavailable.ts';
import { storedJson } from '../redis/stored-json.ts';

/** How long a room's view is kept after its last change. */
const VIEW_TTL_MS = 7 * 24 * 3600 * 1000;

export class RedisRoomBoard implements RoomBoard {
  #redis: ScriptedRedis;
  #shownTtlMs: number;
  #log: Pick<RedisRoomLog, 'entryArgs'>;

  /** `log`: the service's room logs, each change's entry appended by the script that makes it. */
  constructor(redis: ScriptedRedis, shownTtlSeconds: number, log: Pick<RedisRoomLog, 'entryArgs'>) {
    this.#redis = redis;
    this.#shownTtlMs = Math.max(1, shownTtlSeconds * 1000);
    this.#log = log;
  }

  async view(roomId: string): Promise<RoomView> {
    const raw = await orUnavailable(this.#redis.get(KEYS.roomView(roomId)));
    return raw ? readStoredView(storedJson(raw)) : {};
  }

  async setView(roomId: string, view: RoomView): Promise<void> {
    const json = Object.keys(view).length === 0 ? '' : JSON.stringify(view);
    await orUnavailable(this.#redis.vBoardSet(roomId, 'view', json, VIEW_TTL_MS, ...this.#log.entryArgs(viewChanged(view))));
  }

  async shown(roomId: string): Promise<ShownSpecimen | null> {
    const raw = await orUnavailable(this.#redis.get(KEYS.roomShown(roomId)));
    const value = raw ? (storedJson(raw) as Partial<ShownSpecimen> | null) : null;
    if (typeof value?.specimen_id !== 'string' || typeof value.type !== 'string' || typeof value.since !== 'number') return null;
    return { specimen_id: value.specimen_id, type: value.type, since: value.since };
  }

  async setShown(roomId: string, shown: ShownSpecimen): Promise<void> {
    await orUnavailable(this.#redis.vBoardSet(roomId, 'shown', JSON.stringify(shown), this.#shownTtlMs, ...this.#log.entryArgs(entryShown(shown))));
  }

  async clearShown(roomId: string): Promise<boolean> {
    return (await orUnavailable(this.#redis.del(KEYS.roomShown(roomId)))) > 0;
  }

  async announce(roomId: string, event: string, data: unknown): Promise<void> {
    await orUnavailable(this.#redis.publish(CHANNELS.room, roomEventMessage(roomId, event, data)));
  }
}
