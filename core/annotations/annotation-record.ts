/**
 * @module annotation-record
 * An annotation as the host keeps and sends it: the client's fields, then what the host sets
 * (`id`, `version`, `created`, `updated`, milliseconds since the epoch) and its measurements,
 * always in one key order, so the same annotation is the same JSON on every host.
 */
import type { Annotation, AnnotationInput, AnnotationKind, Vec3 } from '../wire/scene-types.ts';

/** What the host stamps on a draft. */
export type AnnotationStamp = Pick<Annotation, 'id' | 'version' | 'created' | 'updated'>;

/**
 * What the host measures of an annotation, in the physical units of the frame its points are
 * in: the length of a line or a polyline (the sum of its segments), the volume of a box
 * (|Δx·Δy·Δz| of its opposite corners) or of an ellipsoid (4/3·π·a·b·c from its radii).
 * Points and lines measure nothing. Distances are summed in double precision, so a ruler
 * between two voxel centres reads what `voxelCentre` (sdk/volume-frame.ts) places them at.
 */
function measure(kind: AnnotationKind, points: readonly Vec3[]): Pick<Annotation, 'length' | 'volume'> {
  switch (kind) {
    case 'line':
    case 'polyline': {
      let length = 0;
      for (let i = 1; i < points.length; i++) {
        const [a, b] = [points[i - 1]!, points[i]!];
        length += Math.hypot(b[0] - a[0], b[1] - a[1], b[2] - a[2]);
      }
      return { length };
    }
    case 'box': {
      const [a, b] = [points[0]!, points[1]!];
      return { volume: Math.abs((b[0] - a[0]) * (b[1] - a[1]) * (b[2] - a[2])) };
    }
    case 'ellipsoid': {
      const r = points[1]!;
      return { volume: (4 / 3) * Math.PI * r[0] * r[1] * r[2] };
    }
    case 'point':
      return {};
  }
}

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
