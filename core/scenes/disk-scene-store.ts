/**
 * @module disk-scene-store
 * Scenes in a lone host's data folder: one record per room in the `scenes` database. A change
 * reads the scene, applies its op and stores the next version with its log entry in one write
 * transaction, so changes apply in the order they were asked for and none is lost, and the
 * room's log has every change the scene has; the `scene` event goes out
 * only once the change is on disk, so no follower sees a version that a crash could undo. The
 * version goes on from where it was after a restart.
 */
import type { RoomScene } from '../wire/scene-types.ts';
import type { DataStore } from '../durable/data-store.ts';
import { DISK } from '../durable/disk-keys.ts';
import { EMPTY_SCENE, type SceneOp } from './scene-ops.ts';
import type { EventHub } from '../events/event-hub.ts';
import type { LogWriter } from '../history/room-log-store.ts';
import { announceScene, applyOp, OpSceneStore, type SceneEntry, type SceneWrite } from './scene-store.ts';

export class DiskSceneStore extends OpSceneStore {
  #store: DataStore;
  #hub: Pick<EventHub, 'publish'>;
  #log: LogWriter;

  /** `hub`: this host's events, where each change's `scene` event goes; `log`: the rooms' logs in the same store. */
  constructor(store: DataStore, hub: Pick<EventHub, 'publish'>, log: LogWriter) {
    super();
    this.#store = store;
    this.#hub = hub;
    this.#log = log;
  }

  get #db() {
    return this.#store.db<RoomScene>(DISK.scenes.name);
  }

  async get(roomId: string): Promise<RoomScene> {
    return this.#db.get(roomId) ?? EMPTY_SCENE;
  }

  protected async apply(roomId: string, op: SceneOp, expected: number | undefined, entry: SceneEntry): Promise<SceneWrite> {
    const written = await this.#store.write((): SceneWrite => {
      const write = applyOp(this.#db.get(roomId) ?? EMPTY_SCENE, op, expected);
      if (!write.changed) return write;
      this.#db.put(roomId, write.scene);
      this.#log.appendNow(roomId, entry(write.before, write.scene));
      return write;
    });
    if (written.changed) announceScene(this.#hub, roomId, written.scene);
    return written;
  }

  async *everyScene(): AsyncIterable<RoomScene> {
    for (const { value } of this.#db.getRange()) if (value.layers.length > 0) yield value;
  }

  close(): void {}
}
