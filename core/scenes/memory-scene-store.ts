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
import type { LogWriter } from '../history/room-log-store.ts';
import { announceScene, applyOp, OpSceneStore, type SceneEntry, type SceneWrite } from './scene-store.ts';

/** Rooms whose scene one host keeps. */
const MAX_ROOMS = 10_000;

export class MemorySceneStore extends OpSceneStore {
  #scenes = new Map<string, RoomScene>();
  #hub: Pick<EventHub, 'publish'>;
  #log: LogWriter;

  /** `hub`: this host's events, where each change's `scene` event goes; `log`: the rooms' logs of this host's memory. */
  constructor(hub: Pick<EventHub, 'publish'>, log: LogWriter) {
    super();
    this.#hub = hub;
    this.#log = log;
  }

  async get(roomId: string): Promise<RoomScene> {
    return this.#scenes.get(roomId) ?? EMPTY_SCENE;
  }

  protected async apply(roomId: string, op: SceneOp, expected: number | undefined, entry: SceneEntry): Promise<SceneWrite> {
    const write = applyOp(this.#scenes.get(roomId) ?? EMPTY_SCENE, op, expected);
    if (!write.changed) return write;
    const { before, scene } = write;
    this.#log.appendNow(roomId, entry(before, scene));
    this.#scenes.delete(roomId);
    this.#scenes.set(roomId, scene);
    if (this.#scenes.size > MAX_ROOMS) this.#scenes.delete(this.#scenes.keys().next().value!);
    announceScene(this.#hub, roomId, scene);
    return write;
  }

  async *everyScene(): AsyncIterable<RoomScene> {
    for (const scene of [...this.#scenes.values()]) if (scene.layers.length > 0) yield scene;
  }

  close(): void {
    this.#scenes.clear();
  }
}
