/**
 * @module memory-scene-store
 * Scenes in one host's memory: each change applied at once (Node runs it on one thread, so
 * nothing comes between reading the scene and storing the next) and its `scene` event sent
 * before the call returns, so events leave in the order of the versions. The rooms whose
 * scenes changed least recently go past MAX_ROOMS.
 */
import type { RoomScene } from '../wire/scene-types.ts';
import { EMPTY_SCENE, type SceneOp } from './scene-ops.ts';
import type { EventHub } from '../events/event-hub.ts';
import { announceScene, OpSceneStore, staleVersion, type SceneWrite } from './scene-store.ts';

/** Rooms whose scene one host keeps. */
const MAX_ROOMS = 10_000;

export class MemorySceneStore extends OpSceneStore {
  #scenes = new Map<string, RoomScene>();
  #hub: Pick<EventHub, 'publish'>;

  /** `hub`: this host's events, where each change's `scene` event goes. */
  constructor(hub: Pick<EventHub, 'publish'>) {
    super();
    this.#hub = hub;
  }

  async get(roomId: string): Promise<RoomScene> {
    return this.#scenes.get(roomId) ?? EMPTY_SCENE;
  }

  async update(roomId: string, op: SceneOp, expected?: number): Promise<SceneWrite> {
    const before = this.#scenes.get(roomId) ?? EMPTY_SCENE;
    if (expected !== undefined && expected !== before.version) throw staleVersion(expected, before.version);
    const after = op(structuredClone(before));
    if (!after) return { before, scene: before, changed: false };
    const scene: RoomScene = { version: before.version + 1, layers: after.layers, active: after.active };
    this.#scenes.delete(roomId);
    this.#scenes.set(roomId, scene);
    if (this.#scenes.size > MAX_ROOMS) this.#scenes.delete(this.#scenes.keys().next().value!);
    announceScene(this.#hub, roomId, scene);
    return { before, scene, changed: true };
  }

  async *everyScene(): AsyncIterable<RoomScene> {
    for (const scene of [...this.#scenes.values()]) if (scene.layers.length > 0) yield scene;
  }

  close(): void {
    this.#scenes.clear();
  }
}
