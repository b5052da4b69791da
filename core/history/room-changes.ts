/**
 * @module room-changes
 * What each change of a room is logged as. The store that makes a change appends its entry in
 * the same write (the data folder's transaction, the Redis script, the memory's turn), so the
 * room and its log never disagree: the scene (whole, as its `scene` event carries it; a change
 * of one layer is a `layer` entry naming the layer and what happened to it), the view, a static
 * specimen shown (`entry`), the marks (one entry per write; a large batch is several `add`
 * entries of at most LOGGED_MARKS points each, so that no entry holds a whole room; folded,
 * they make the same room), a snapshot taken, the room's access. Each is stamped with who made
 * it (request-actor.ts). A Redis script that makes the room's version itself makes the marks'
 * entries in the same shape (redis/annotation-scripts.ts).
 */
import type { Annotation, AnnotationEvent, AnnotationList, RoomScene } from '../wire/scene-types.ts';
import { currentActor } from './request-actor.ts';
import { weighedRuns } from '../memory/turn-batches.ts';
import type { LogChange, LogType } from './room-log-store.ts';

/** Marks per `add` entry of the log. */
export const LOGGED_MARKS = 2000;

const made = (type: LogType, change: Record<string, unknown>): LogChange => ({ type, by: currentActor(), change });

/** A change of the scene as a whole (replaced, restored, its active layer set). */
export const sceneChanged = (scene: RoomScene): LogChange => made('scene', { scene });

/** A change of one layer (`op`: add, change, remove, result), with the scene after it; an added layer is found by its new id. */
export function layerChanged(op: string, layerId: string | null, before: RoomScene, scene: RoomScene): LogChange {
  const id = layerId ?? scene.layers.find((layer) => !before.layers.some((old) => old.id === layer.id))?.id ?? null;
  return made('layer', { op, layer: id, scene });
}

export const viewChanged = (view: object): LogChange => made('view', { view });

/** A static specimen put in front of the room (a computed entry comes with its layer's result). */
export const entryShown = (shown: { specimen_id: string; type: string }): LogChange =>
  made('entry', { entry: { function_name: null, specimen_id: shown.specimen_id, params: {}, type: shown.type } });

/** One mark changed or removed: the room event's fields. */
export const markChanged = (event: AnnotationEvent): LogChange => made('annotation', { ...event });

/**
 * Marks added at once, the last at the room version `added.version`: entries of at most
 * LOGGED_MARKS points (that many marks of one point, or a long polyline alone), each with the
 * version its last mark made, so that no entry's encoding holds the event loop for long.
 */
export function marksAdded(added: AnnotationList): LogChange[] {
  const { annotations, version } = added;
  if (annotations.length <= 1) return [made('annotation', { op: 'add', annotations, version })];
  const before = version - annotations.length;
  let at = 0;
  return weighedRuns(annotations, LOGGED_MARKS, (a) => Math.max(1, a.points.length)).map((part) => {
    at += part.length;
    return made('annotation', { op: 'add', annotations: part, version: before + at });
  });
}

/** The room's marks made these (a snapshot restored, a replay). */
export const marksReplaced = (annotations: readonly Annotation[], version: number): LogChange =>
  made('annotation', { op: 'replace', annotations, version });

export const snapshotTaken = (snapshotId: string): LogChange => made('snapshot', { snapshot_id: snapshotId });

/** The room's access as it is now set: owner, editors, viewers and what everyone else may do. */
export const accessSet = (access: object): LogChange => made('access', { access });
