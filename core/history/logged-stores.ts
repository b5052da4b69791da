/**
 * @module logged-stores
 * The room's stores as the host uses them, each change recorded in the room's log after it
 * was made: the scene (the whole scene, as its `scene` event carries it), the view and the
 * static specimen shown (the room board), and the marks (one entry per write). Wrapping the
 * stores, rather than the routes, records every change whichever route, tool, snapshot
 * restore or background computation made it, and on a service only on the host that made it.
 */
import type { AnnotationStore } from '../annotations/annotation-store.ts';
import type { RoomBoard } from '../rooms/room-board.ts';
import { OpSceneStore, type SceneStore, type SceneWrite } from '../scenes/scene-store.ts';
import type { SceneOp } from '../scenes/scene-ops.ts';
import type { RoomScene } from '../client/scene-types.ts';
import type { RoomRecorder } from './room-recorder.ts';

export class LoggedSceneStore extends OpSceneStore {
  #inner: SceneStore;
  #log: RoomRecorder;

  constructor(inner: SceneStore, log: RoomRecorder) {
    super();
    this.#inner = inner;
    this.#log = log;
  }

  get(roomId: string): Promise<RoomScene> {
    return this.#inner.get(roomId);
  }

  async update(roomId: string, op: SceneOp, expected?: number): Promise<SceneWrite> {
    const write = await this.#inner.update(roomId, op, expected);
    if (write.changed) await this.#log.record(roomId, 'scene', { scene: write.scene });
    return write;
  }

  close(): void {
    this.#inner.close();
  }
}

export function loggedBoard(board: RoomBoard, log: RoomRecorder): RoomBoard {
  return {
    view: (roomId) => board.view(roomId),
    setView: async (roomId, view) => {
      await board.setView(roomId, view);
      await log.record(roomId, 'view', { view });
    },
    shown: (roomId) => board.shown(roomId),
    setShown: async (roomId, shown) => {
      await board.setShown(roomId, shown);
      await log.record(roomId, 'entry', { entry: { function_name: null, specimen_id: shown.specimen_id, params: {}, type: shown.type } });
    },
    clearShown: (roomId) => board.clearShown(roomId),
    announce: (roomId, event, data) => board.announce(roomId, event, data),
  };
}

export function loggedAnnotations(store: AnnotationStore, log: RoomRecorder): AnnotationStore {
  return {
    list: (roomId) => store.list(roomId),
    version: (roomId) => store.version(roomId),
    get: (roomId, id) => store.get(roomId, id),
    add: async (roomId, drafts) => {
      const added = await store.add(roomId, drafts);
      await log.record(roomId, 'annotation', { op: 'add', annotations: added.annotations, version: added.version });
      return added;
    },
    change: async (roomId, id, patch, expected) => {
      const event = await store.change(roomId, id, patch, expected);
      await log.record(roomId, 'annotation', { ...event });
      return event;
    },
    remove: async (roomId, id, expected) => {
      const event = await store.remove(roomId, id, expected);
      await log.record(roomId, 'annotation', { ...event });
      return event;
    },
    replace: async (roomId, annotations) => {
      const version = await store.replace(roomId, annotations);
      await log.record(roomId, 'annotation', { op: 'replace', annotations, version });
      return version;
    },
    close: () => store.close(),
  };
}
