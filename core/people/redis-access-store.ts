/**
 * @module redis-access-store
 * Rooms' access on a Redis service: a key per closed room, changed by a script that checks the
 * owner is still the one the change was decided on, so every host of the service agrees on one
 * owner and refuses a reader the moment the room is closed. A user removed is forgotten in every
 * room's access, each room rewritten only as it was read. Each change is logged in the room's
 * log by the script that makes it (redis/room-scripts.ts).
 */
import type { RedisRoomLog } from '../history/redis-room-log.ts';
import { accessSet } from '../history/room-changes.ts';
import { KEYS } from '../redis/redis-keys.ts';
import type { ScriptedRedis } from '../redis/redis-scripts.ts';
import { orUnavailable } from '../redis/redis-unavailable.ts';
import type { AccessStore } from './access-store.ts';
import { withoutUser, type RoomAccess } from './room-access.ts';
import { ADMIN_NAME } from './users.ts';

/** Writes a room's access again when another host changed it while it was being rewritten. */
const ATTEMPTS = 5;

function parse(json: string | null | undefined): RoomAccess | null {
  return json ? (JSON.parse(json) as RoomAccess) : null;
}

export class RedisAccessStore implements AccessStore {
  #redis: ScriptedRedis;
  #log: Pick<RedisRoomLog, 'entryArgs'>;

  /** `log`: the service's room logs, each change's entry appended by the script that makes it. */
  constructor(redis: ScriptedRedis, log: Pick<RedisRoomLog, 'entryArgs'>) {
    this.#redis = redis;
    this.#log = log;
  }

  async get(roomId: string): Promise<RoomAccess | null> {
    return parse(await orUnavailable(this.#redis.get(KEYS.roomAccess(roomId))));
  }

  /** Another host may have changed it a moment ago: only Redis can say. */
  known(): undefined {
    return undefined;
  }

  async set(roomId: string, access: RoomAccess, expectedOwner: string | null) {
    const logged = this.#log.entryArgs(accessSet(access));
    const [changed, json] = (await orUnavailable(this.#redis.vAccessSet(roomId, expectedOwner ?? '', JSON.stringify(access), ...logged))) as [number, string];
    return { access: parse(json), changed: changed === 1 };
  }

  async forget(name: string) {
    const changed: { roomId: string; access: RoomAccess }[] = [];
    const prefix = KEYS.roomAccess('');
    let cursor = '0';
    do {
      const [next, keys] = await orUnavailable(this.#redis.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 500));
      for (const key of keys) {
        const roomId = key.slice(prefix.length);
        const access = await this.#forgetIn(roomId, name);
        if (access) changed.push({ roomId, access });
      }
      cursor = next;
    } while (cursor !== '0');
    return changed;
  }

  /** Rewrites one room's access without `name`, as it is when written; the access written, or null. */
  async #forgetIn(roomId: string, name: string): Promise<RoomAccess | null> {
    for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
      const json = await orUnavailable(this.#redis.get(KEYS.roomAccess(roomId)));
      const without = json ? withoutUser(JSON.parse(json) as RoomAccess, name, ADMIN_NAME) : null;
      if (!without) return null;
      const logged = this.#log.entryArgs(accessSet(without));
      if ((await orUnavailable(this.#redis.vAccessReplace(roomId, json!, JSON.stringify(without), ...logged))) === 1) return without;
    }
    throw new Error(`the access of room '${roomId}' kept changing while user '${name}' was being forgotten in it`);
  }

  async close(): Promise<void> {}
}
