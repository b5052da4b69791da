/**
 * @module disk-scene-store
 * Scenes in a lone host's data folder: one record per room in the `scenes` database. A change
 * reads the scene, applies its op and stores the next version in one write transaction, so
 * changes apply in the order they were asked for and none is lost; the `scene` event goes out
 * only once the change is on disk, so no follower sees a version that a crash could undo. The
 * version goes on from where it was after a restart.
 */
import type { RoomScene } from '../wire/scene-types.ts';
import type { DataStore } from '../durable/data-store.ts';
import { EMPTY_SCENE, type SceneOp } from './scene-ops.ts';
import type { EventHub } from '../events/event-hub.ts';
import { announceScene, OpSceneStore, staleVersion, type SceneWrite } from './scene-store.ts';

export class DiskSceneStore extends OpSceneStore {
  #store: DataStore;
  #hub: Pick<EventHub, 'publish'>;

  /** `hub`: this host's events, where each change's `scene` event goes. */
  constructor(store: DataStore, hub: Pick<EventHub, 'publish'>) {
    super();
    this.#store = store;
    this.#hub = hub;
  }

  get #db() {
    return this.#store.db<RoomScene>('scenes');
  }

  async get(roomId: string): Promise<RoomScene> {
    return this.#db.get(roomId) ?? EMPTY_SCENE;
  }

  async update(roomId: string, op: SceneOp, expected?: number): Promise<SceneWrite> {
    const written = await this.#store.write((): SceneWrite => {
      const before = this.#db.get(roomId) ?? EMPTY_SCENE;
      if (expected !== undefined && expected !== before.version) throw staleVersion(expected, before.version);
      const after = op(structuredClone(before));
      if (!after) return { before, scene: before, changed: false };
      const scene: RoomScene = { version: before.version + 1, layers: after.layers, active: after.active };
      this.#db.put(roomId, scene);
      return { before, scene, changed: true };
    });
    if (written.changed) announceScene(this.#hub, roomId, written.scene);
    return written;
  }

  async *everyScene(): AsyncIterable<RoomScene> {
    for (const { value } of this.#db.getRange()) if (value.layers.length > 0) yield value;
  }

  close(): void {}
}
