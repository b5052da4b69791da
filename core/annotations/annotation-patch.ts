/**
 * @module annotation-patch
 * A change to one annotation (`PATCH .../annotations/{id}`): the fields given replace the
 * annotation's, `null` removes an optional one (`label`, `layer`, `color`, `properties`,
 * `author`). `properties` is replaced whole. A new `kind` needs points that suit it: the merged
 * annotation is checked as a new one would be, so a change never leaves a line with one point.
 */
import { ANNOTATION_KINDS, type Annotation, type AnnotationInput } from '../wire/scene-types.ts';
import { toAnnotation } from './annotation-record.ts';
import { checkOptional, checkPoints, invalid, refuseUnknown } from './check-annotation.ts';
import { isRecord } from '../wire/json-object.ts';

const OPTIONAL = ['layer', 'label', 'color', 'properties', 'author'] as const;

/** What a change asks for: each field given (checked alone), or null to remove an optional one. */
export type AnnotationPatch = { kind?: unknown; points?: unknown } & { [K in (typeof OPTIONAL)[number]]?: AnnotationInput[K] | null };

/** A PATCH body, checked as far as a field can be alone. */
export function checkPatch(body: unknown): AnnotationPatch {
  if (!isRecord(body)) throw invalid('body', 'must be an object of the fields to change');
  refuseUnknown(body, '');
  const patch: AnnotationPatch = {};
  if (body.kind !== undefined) {
    if (typeof body.kind !== 'string' || !(ANNOTATION_KINDS as readonly string[]).includes(body.kind))
      throw invalid('kind', `must be one of ${ANNOTATION_KINDS.join(', ')}`);
    patch.kind = body.kind;
  }
  if (body.points !== undefined) {
    if (!Array.isArray(body.points)) throw invalid('points', 'must be a list of points [x, y, z]');
    patch.points = body.points;
  }
  for (const name of OPTIONAL) {
    if (!(name in body) || body[name] === undefined) continue;
    const value = body[name] === null ? null : (checkOptional(name, body[name], name) ?? null);
    (patch as Record<string, unknown>)[name] = value;
  }
  return patch;
}

/**
 * `current` with `patch` applied (the draft checked whole), as every store keeps a change: one
 * version on, created when it was, updated now (never before its last update, whatever the clock did).
 */
export function changedAnnotation(current: Annotation, patch: AnnotationPatch, now: number): Annotation {
  const kind = (patch.kind ?? current.kind) as AnnotationInput['kind'];
  const draft: AnnotationInput = { kind, points: checkPoints(kind, patch.points ?? current.points, 'points') };
  for (const name of OPTIONAL) {
    const value = name in patch ? patch[name] : current[name];
    if (value !== undefined && value !== null) (draft as unknown as Record<string, unknown>)[name] = value;
  }
  return toAnnotation(draft, {
    id: current.id,
    version: current.version + 1,
    created: current.created,
    updated: Math.max(now, current.updated),
  });
}
