/**
 * @module redis-edit-store
 * A Redis service's labels edits: a list per layer, appended by one script
 * (redis/edit-scripts.ts) that keeps the edit only at the version it was planned on, appends
 * its room log entry and publishes its `labels` event in one step. So every host of the
 * service keeps a layer's edits in one order; a host that lost the race reads the edits it
 * missed, applies them and plans its edit again.
 */
import { KEYS } from '../redis/redis-keys.ts';
import type { ScriptedRedis } from '../redis/redis-scripts.ts';
import { orUnavailable } from '../redis/redis-unavailable.ts';
import type { RedisRoomLog } from '../history/redis-room-log.ts';
import type { EditRecord } from '../wire/edit-types.ts';
import { editChange, type EditDraft, type EditStore } from './edit-store.ts';

export class RedisEditStore implements EditStore {
  #redis: ScriptedRedis;
  #log: Pick<RedisRoomLog, 'entryArgs'>;

  constructor(redis: ScriptedRedis, log: Pick<RedisRoomLog, 'entryArgs'>) {
    this.#redis = redis;
    this.#log = log;
  }

  async append(roomId: string, layerId: string, expected: number, drafts: readonly EditDraft[]): Promise<EditRecord[] | null> {
    const logged = drafts.flatMap((draft, k) => this.#log.entryArgs(editChange(layerId, expected + 1 + k, draft)));
    const json = await orUnavailable(this.#redis.vEditAppend(roomId, JSON.stringify(roomId), layerId, expected, ...logged));
    return json ? (JSON.parse(String(json)) as EditRecord[]) : null;
  }

  async after(roomId: string, layerId: string, version: number): Promise<EditRecord[]> {
    const rows = await orUnavailable(this.#redis.lrange(KEYS.layerEdits(roomId, layerId), Math.max(0, version), -1));
    return rows.map((row) => JSON.parse(row) as EditRecord);
  }

  close(): void {}
}
