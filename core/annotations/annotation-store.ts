/**
 * @module annotation-store
 * A room's annotations, kept by the host: the interface both implementations share (the
 * one-host MemoryAnnotationStore and, on a Redis service, RedisAnnotationStore, side by side in
 * this folder; test/conformance/annotation-store.test.ts runs the same cases on both).
 *
 * Per room: ids made by the host (decimal counters, never reused, also after a removal), a
 * room `version` moved by one for every annotation added, changed or removed, each annotation's
 * own `version` (1 when added, +1 per change) for `If-Match`, and at most `maxPerRoom`
 * annotations (a request that would pass it adds nothing). Every change sends the room event
 * `annotation` (`{op, annotation, version}`) on the room's channel, in version order; a batch
 * of more than EVENT_BATCH_LIMIT changes, or whose marks hold more than EVENT_BATCH_POINTS
 * points, sends only its last, so followers see the jump in versions and read the list again
 * rather than a flood (an import of long polylines made megabytes of events in one turn, more
 * than a follower's stream may hold unread, so it was closed anyway).
 */
import type { Annotation, AnnotationEvent, AnnotationInput, AnnotationList } from '../wire/scene-types.ts';
import type { AnnotationPatch } from './annotation-patch.ts';
import { createHostError } from '../errors.ts';
import { pointsOf } from './annotation-record.ts';

/** The room event an annotation change sends. */
export const ANNOTATION_EVENT = 'annotation';

/** Changes in one batch past which only the batch's last change is sent as an event. */
export const EVENT_BATCH_LIMIT = 1000;

/** Points (a mark's one, a polyline's vertices) in one batch past which only its last change is sent as an event: about 0.5 MB of events. */
export const EVENT_BATCH_POINTS = 20_000;

/** Annotations a room holds at most, unless `--max-annotations` says otherwise. */
export const DEFAULT_MAX_ANNOTATIONS = 100_000;

export interface AnnotationStore {
  /**
   * True when `list` hands out the same objects for marks that did not change (a host's
   * memory): what is rendered of them may be kept with them for the next version.
   */
  readonly stableMarks?: boolean;
  /** The room's version and every annotation, in id order. */
  list(roomId: string): Promise<AnnotationList>;
  /** The room's version alone (0 for a room never annotated): what forms made from the list are keyed by. */
  version(roomId: string): Promise<number>;
  get(roomId: string, id: string): Promise<Annotation | null>;
  /**
   * Adds every draft, or none: the added annotations with their ids and the room's version after.
   * @throws SPC_ERR_ANNOTATIONS_FULL when the room would hold more than its limit.
   */
  add(roomId: string, drafts: readonly AnnotationInput[]): Promise<AnnotationList>;
  /**
   * Applies `patch` to annotation `id`. With `expected`, only while the annotation is at that
   * version; without, on whatever version it is at (a change made meanwhile is not lost: the
   * patch is applied on top of it).
   * @throws SPC_ERR_ANNOTATION_NOT_FOUND, SPC_ERR_ANNOTATION_STALE (412), SPC_ERR_ANNOTATION_INVALID.
   */
  change(roomId: string, id: string, patch: AnnotationPatch, expected?: number): Promise<AnnotationEvent>;
  /** Removes annotation `id` (only at version `expected`, when given). @throws SPC_ERR_ANNOTATION_NOT_FOUND, SPC_ERR_ANNOTATION_STALE. */
  remove(roomId: string, id: string, expected?: number): Promise<AnnotationEvent>;
  /**
   * Makes `annotations` (with their ids, versions and times) the room's whole list, as restoring
   * a snapshot does; later ids stay past every id it holds. Answers the room's version after.
   */
  replace(roomId: string, annotations: readonly Annotation[]): Promise<number>;
  /**
   * The changes after version `since`, in version order, for a follower that missed some; null
   * when they are no longer known (too old, or this store keeps none): read the whole list then.
   */
  changesSince?(roomId: string, since: number): Promise<AnnotationEvent[] | null>;
  close(): void;
}

/** Whether a batch changing `marks` sends only its last event: past EVENT_BATCH_LIMIT changes or EVENT_BATCH_POINTS points. */
export function onlyLastEvent(marks: readonly Pick<Annotation, 'points'>[]): boolean {
  if (marks.length > EVENT_BATCH_LIMIT) return true;
  let points = 0;
  for (const mark of marks) if ((points += pointsOf(mark)) > EVENT_BATCH_POINTS) return true;
  return false;
}

/** The events a batch of changes sends: each one, or only the last (see {@link onlyLastEvent}). */
export function eventsOf(changes: readonly AnnotationEvent[]): readonly AnnotationEvent[] {
  return onlyLastEvent(changes.map((change) => change.annotation)) ? changes.slice(-1) : changes;
}

/**
 * The events of marks added at once, the last at room version `version`: the last `keep` of
 * them (by default every one, or only the last where `eventsOf` would send only that).
 */
export function addedEvents(
  annotations: readonly Annotation[],
  version: number,
  keep = onlyLastEvent(annotations) ? 1 : annotations.length,
): AnnotationEvent[] {
  const first = version - annotations.length + 1;
  const from = annotations.length - keep;
  return annotations.slice(from).map((annotation, i) => ({ op: 'add', annotation, version: first + from + i }));
}

/** Mark `id` as read (`current`), as a change may be made to it. @throws SPC_ERR_ANNOTATION_NOT_FOUND, or SPC_ERR_ANNOTATION_STALE when not at `expected` */
export function changeable(current: Annotation | null | undefined, roomId: string, id: string, expected: number | undefined): Annotation {
  if (!current) throw createHostError('SPC_ERR_ANNOTATION_NOT_FOUND', id, roomId);
  if (expected !== undefined && current.version !== expected)
    throw createHostError('SPC_ERR_ANNOTATION_STALE', id, String(expected), String(current.version));
  return current;
}

/** Ids in the order the list answers them: numerically (host ids are decimal counters). */
export function byId(a: Annotation, b: Annotation): number {
  return a.id.length - b.id.length || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
}

/** The id after the largest of `annotations` (1 when none is a counter). */
export function nextIdAfter(annotations: readonly Annotation[]): number {
  let next = 1;
  for (const a of annotations) if (/^\d{1,15}$/.test(a.id)) next = Math.max(next, Number(a.id) + 1);
  return next;
}
