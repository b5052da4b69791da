/**
 * @module redis-access-store
 * Rooms' access on a Redis service: a key per closed room, changed by a script that checks the
 * owner is still the one the change was decided on, so every host of the service agrees on one
 * owner and refuses a reader the moment the room is closed. A user removed is forgotten in every
 * room's access, each room rewritten only as it was read. Each change is logged in the room's
 * log by the script that makes it (redis/room-scripts.ts), which also publishes the room's id:
 * a host that hears the service's pub/sub holds each room's access as read, so a request naming
 * a room makes no round trip, and drops it when the message comes (redis/held-by-room.ts: why
 * the next request after a change, on any host, sees it). A process that does not listen (the
 * CLI's `users remove`) holds nothing.
 */
import type { RedisRoomLog } from '../history/redis-room-log.ts';
import { accessSet } from '../history/room-changes.ts';
import { KEYS } from '../redis/redis-keys.ts';
import { HeldByRoom, type HeldNews, type ReadValue } from '../redis/held-by-room.ts';
import type { ScriptedRedis } from '../redis/redis-scripts.ts';
import { orUnavailable } from '../redis/redis-unavailable.ts';
import type { AccessStore } from './access-store.ts';
import { withoutUser, type RoomAccess } from './room-access.ts';
import { ADMIN_NAME } from './users.ts';

/** Writes a room's access again when another host changed it while it was being rewritten. */
const ATTEMPTS = 5;
/**
 * How long a room's access read is held at most. Changes reach a listening host by message at
 * once; this bounds what a message lost unnoticed could leave behind, at one read per room.
 */
const HOLD_MS = 2000;

function parse(json: string | null | undefined): RoomAccess | null {
  return json ? (JSON.parse(json) as RoomAccess) : null;
}

export class RedisAccessStore implements AccessStore {
  #redis: ScriptedRedis;
  #log: Pick<RedisRoomLog, 'entryArgs'>;
  #held: HeldByRoom<RoomAccess | null> | null = null;
  #stopHearing: (() => void) | null = null;

  /**
   * `log`: the service's room logs, each change's entry appended by the script that makes it;
   * `news`: where this host hears rooms' access change (without it nothing is held).
   */
  constructor(redis: ScriptedRedis, log: Pick<RedisRoomLog, 'entryArgs'>, news?: HeldNews) {
    this.#redis = redis;
    this.#log = log;
    if (news) {
      this.#held = new HeldByRoom(() => news.listening());
      this.#stopHearing = this.#held.hear(news);
    }
  }

  get(roomId: string): Promise<RoomAccess | null> {
    return this.#held ? this.#held.get(roomId, this.#read) : this.#readNow(roomId);
  }

  async #readNow(roomId: string): Promise<RoomAccess | null> {
    return parse(await orUnavailable(this.#redis.get(KEYS.roomAccess(roomId))));
  }

  /** Made once: a request passes it, it makes no closure. */
  readonly #read = async (roomId: string): Promise<ReadValue<RoomAccess | null>> => ({ value: await this.#readNow(roomId), keepMs: HOLD_MS });

  /** Another host may have changed it a moment ago: only Redis can say. */
  known(): undefined {
    return undefined;
  }

  async set(roomId: string, access: RoomAccess, expectedOwner: string | null) {
    const logged = this.#log.entryArgs(accessSet(access));
    const [changed, json] = (await orUnavailable(this.#redis.vAccessSet(roomId, expectedOwner ?? '', JSON.stringify(access), ...logged))) as [number, string];
    // This host's next request sees what the script left, message or not.
    this.#held?.invalidate(roomId);
    return { access: parse(json), changed: changed === 1 };
  }

  /** A user was removed beside this host: what it held may name them. */
  reread(): void {
    this.#held?.dropAll();
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
      const replaced = await orUnavailable(this.#redis.vAccessReplace(roomId, json!, JSON.stringify(without), ...logged));
      this.#held?.invalidate(roomId);
      if (replaced === 1) return without;
    }
    throw new Error(`the access of room '${roomId}' kept changing while user '${name}' was being forgotten in it`);
  }

  async close(): Promise<void> {
    this.#stopHearing?.();
    this.#held?.close();
  }
}
