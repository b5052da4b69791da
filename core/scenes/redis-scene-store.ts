/**
 * @module redis-scene-store
 * Scenes on a Redis service: one hash per room (`v` the version, `json` the scene), shared by
 * every host and kept across their restarts. A change reads the scene, applies its op here,
 * and writes the result with a script that checks the version is still the one read, storing
 * it at the next version, appending its log entry and publishing the `scene` event in the same
 * step; another writer
 * having come first, it reads again and applies the op again. So writers on any number of
 * hosts never lose a change nor reuse a version, and every host's streams get the events in
 * the order of the versions. A scene is kept 30 days after its last change.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import type { RoomScene } from '../wire/scene-types.ts';
import { createHostError } from '../errors.ts';
import { roomEventMessage } from '../redis/redis-events.ts';
import { KEYS } from '../redis/redis-keys.ts';
import type { ScriptedRedis } from '../redis/redis-scripts.ts';
import { orUnavailable } from '../redis/redis-unavailable.ts';
import { storedJson } from '../redis/stored-json.ts';
import type { RedisRoomLog } from '../history/redis-room-log.ts';
import { EMPTY_SCENE, type SceneOp } from './scene-ops.ts';
import { applyOp, OpSceneStore, sceneEvent, type SceneEntry, type SceneWrite } from './scene-store.ts';

/** How long a scene is kept after its last change. */
export const SCENE_TTL_MS = 30 * 24 * 3600 * 1000;
/** Keys a SCAN asks for at once when every scene is read. */
const SCAN_PAGE = 200;
/** Writes tried before a change gives up under contention (each one lost to another writer's). */
const ATTEMPTS = 100;

function parseScene(version: string | null, json: string | null): RoomScene {
  if (!version || !json) return EMPTY_SCENE;
  const scene = storedJson(json) as RoomScene | null;
  return { version: Number(version), layers: Array.isArray(scene?.layers) ? scene.layers : [], active: scene?.active ?? null };
}

export class RedisSceneStore extends OpSceneStore {
  #redis: ScriptedRedis;
  #log: Pick<RedisRoomLog, 'entryArgs'>;

  /** `log`: the service's room logs, each change's entry appended by the script that makes it. */
  constructor(redis: ScriptedRedis, log: Pick<RedisRoomLog, 'entryArgs'>) {
    super();
    this.#redis = redis;
    this.#log = log;
  }

  async get(roomId: string): Promise<RoomScene> {
    const [version, json] = await orUnavailable(this.#redis.hmget(KEYS.roomScene(roomId), 'v', 'json'));
    return parseScene(version ?? null, json ?? null);
  }

  protected async apply(roomId: string, op: SceneOp, expected: number | undefined, entry: SceneEntry): Promise<SceneWrite> {
    for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
      const write = applyOp(await this.get(roomId), op, expected);
      if (!write.changed) return write;
      const { before, scene } = write;
      const { event: name, data } = sceneEvent(scene);
      const event = roomEventMessage(roomId, name, data);
      const logged = this.#log.entryArgs(entry(before, scene));
      const written = await orUnavailable(this.#redis.vSceneWrite(roomId, before.version, JSON.stringify(scene), SCENE_TTL_MS, event, ...logged));
      if (Number(written) === 1) return write;
      // Another writer came first: read its scene and apply the op to it, spreading retries out under contention.
      if (attempt >= 3) await sleep(Math.random() * Math.min(50, attempt * 2));
    }
    throw createHostError('SPC_ERR_SCENE_CONTENDED', roomId);
  }

  /** Every room's scene, found by a SCAN of the scene keys (a page of keys at a time, never KEYS). */
  async *everyScene(): AsyncIterable<RoomScene> {
    const prefix = KEYS.roomScene('');
    let cursor = '0';
    do {
      const [next, keys] = await orUnavailable(this.#redis.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', SCAN_PAGE));
      cursor = next;
      const read = this.#redis.pipeline();
      for (const key of keys) read.hmget(key, 'v', 'json');
      for (const [, found] of (await orUnavailable(read.exec())) ?? []) {
        const [version, json] = (found ?? []) as (string | null)[];
        const scene = parseScene(version ?? null, json ?? null);
        if (scene.layers.length > 0) yield scene;
      }
    } while (cursor !== '0');
  }

  close(): void {}
}
