/**
 * @module logged-stores
 * The room's stores as the host uses them, each change recorded in the room's log after it
 * was made: the scene (the whole scene, as its `scene` event carries it; a change of one layer
 * is a `layer` entry naming the layer and what happened to it), the view and the
 * static specimen shown (the room board), and the marks (one entry per write; a large import is
 * several `add` entries of LOGGED_MARKS marks each, so that no turn of the event loop encodes a
 * whole room of marks as one entry; folded, they make the same room). Wrapping the
 * stores, rather than the routes, records every change whichever route, tool, snapshot
 * restore or background computation made it, and on a service only on the host that made it.
 */
import type { AnnotationStore } from '../annotations/annotation-store.ts';
import type { RoomBoard } from '../rooms/room-board.ts';
import { OpSceneStore, type SceneStore, type SceneWrite } from '../scenes/scene-store.ts';
import type { LayerDraft, SceneOp } from '../scenes/scene-ops.ts';
import type { AnnotationList, LayerKind, LayerResult, RoomScene } from '../wire/scene-types.ts';
import type { LayerChange } from '../scenes/check-layer.ts';
import type { StepCounts } from '../scenes/layer-steps.ts';
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

  everyScene(): AsyncIterable<RoomScene> {
    return this.#inner.everyScene();
  }

  async update(roomId: string, op: SceneOp, expected?: number): Promise<SceneWrite> {
    const write = await this.#inner.update(roomId, op, expected);
    if (write.changed) await this.#log.record(roomId, 'scene', { scene: write.scene });
    return write;
  }

  /** A change of one layer: recorded as a `layer` entry (`op`, the layer's id) with the whole scene after it. */
  async #layer(roomId: string, op: string, layerId: string | null, work: Promise<SceneWrite>): Promise<SceneWrite> {
    const write = await work;
    const id = layerId ?? write.scene.layers.find((layer) => !write.before.layers.some((old) => old.id === layer.id))?.id ?? null;
    if (write.changed) await this.#log.record(roomId, 'layer', { op, layer: id, scene: write.scene });
    return write;
  }

  override add(roomId: string, layer: LayerDraft, index?: number): Promise<SceneWrite> {
    return this.#layer(roomId, 'add', null, this.#inner.add(roomId, layer, index));
  }

  override patch(roomId: string, layerId: string, change: LayerChange, expected?: number): Promise<SceneWrite> {
    return this.#layer(roomId, 'change', layerId, this.#inner.patch(roomId, layerId, change, expected));
  }

  override remove(roomId: string, layerId: string): Promise<SceneWrite> {
    return this.#layer(roomId, 'remove', layerId, this.#inner.remove(roomId, layerId));
  }

  override setResult(
    roomId: string,
    layerId: string,
    source: LayerDraft['source'],
    result: LayerResult,
    kind?: LayerKind,
    counts?: StepCounts,
  ): Promise<SceneWrite> {
    return this.#layer(roomId, 'result', layerId, this.#inner.setResult(roomId, layerId, source, result, kind, counts));
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

/** Marks per `add` entry of the log. */
export const LOGGED_MARKS = 2000;

/** Records the marks `added` as entries of at most LOGGED_MARKS, each with the room version its last mark made. */
async function recordAdded(log: RoomRecorder, roomId: string, added: AnnotationList): Promise<void> {
  const { annotations, version } = added;
  if (annotations.length <= LOGGED_MARKS) {
    await log.record(roomId, 'annotation', { op: 'add', annotations, version });
    return;
  }
  const before = version - annotations.length;
  for (let at = 0; at < annotations.length; at += LOGGED_MARKS) {
    const part = annotations.slice(at, at + LOGGED_MARKS);
    await log.record(roomId, 'annotation', { op: 'add', annotations: part, version: before + at + part.length });
  }
}

export function loggedAnnotations(store: AnnotationStore, log: RoomRecorder): AnnotationStore {
  return {
    list: (roomId) => store.list(roomId),
    version: (roomId) => store.version(roomId),
    get: (roomId, id) => store.get(roomId, id),
    add: async (roomId, drafts) => {
      const added = await store.add(roomId, drafts);
      await recordAdded(log, roomId, added);
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
    // What a follower that missed versions reads (a home that keeps no changes answers the whole list).
    ...(store.stableMarks ? { stableMarks: true } : {}),
    ...(store.changesSince ? { changesSince: (roomId: string, since: number) => store.changesSince!(roomId, since) } : {}),
    close: () => store.close(),
  };
}
