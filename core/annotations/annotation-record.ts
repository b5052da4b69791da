/**
 * @module annotation-record
 * An annotation as the host keeps and sends it: the client's fields, then what the host sets
 * (`id`, `version`, `created`, `updated`, milliseconds since the epoch) and its measurements,
 * always in one key order, so the same annotation is the same JSON on every host.
 */
import type { Annotation, AnnotationInput } from '../wire/scene-types.ts';
import { measure } from './measure-annotation.ts';

/** What the host stamps on a draft. */
export type AnnotationStamp = Pick<Annotation, 'id' | 'version' | 'created' | 'updated'>;

export function toAnnotation(draft: AnnotationInput, stamp: AnnotationStamp): Annotation {
  const annotation = { id: stamp.id, kind: draft.kind, points: draft.points.map((p) => [p[0], p[1], p[2]]) } as Annotation;
  if (draft.layer !== undefined) annotation.layer = draft.layer;
  if (draft.label !== undefined) annotation.label = draft.label;
  if (draft.color !== undefined) annotation.color = draft.color;
  if (draft.properties !== undefined) annotation.properties = { ...draft.properties };
  if (draft.author !== undefined) annotation.author = draft.author;
  annotation.version = stamp.version;
  annotation.created = stamp.created;
  annotation.updated = stamp.updated;
  return Object.assign(annotation, measure(draft.kind, draft.points));
}

/** What a mark or a draft weighs in work done a batch per turn: its points (every kind has at least one). */
export const pointsOf = (mark: { points?: unknown }): number => (Array.isArray(mark.points) ? Math.max(1, mark.points.length) : 1);
