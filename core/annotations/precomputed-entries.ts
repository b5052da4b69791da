/**
 * @module precomputed-entries
 * A room's annotations as Neuroglancer's precomputed annotation collections see them: one
 * collection per geometry type (`point`, `line`, `axis_aligned_bounding_box`, `ellipsoid`),
 * each entry a uint64 id and its positions. Points, boxes (their lower then upper corner) and
 * ellipsoids (centre, then radii) keep their annotation's id; a line keeps its id, and each
 * segment of a polyline is a line of its own whose id sets the top bit and packs the
 * polyline's id with the segment's place (`2^63 + id·2^14 + k`), so selecting one in
 * Neuroglancer finds it again by id.
 */
import type { Annotation, AnnotationKind } from '../wire/scene-types.ts';
import { MAX_POINTS } from './check-annotation.ts';

export const PRECOMPUTED_TYPES = ['point', 'line', 'axis_aligned_bounding_box', 'ellipsoid'] as const;
export type PrecomputedType = (typeof PRECOMPUTED_TYPES)[number];

/** Neuroglancer's name of each type in `annotation_type`. */
export const NEUROGLANCER_TYPE: Record<PrecomputedType, string> = {
  point: 'POINT',
  line: 'LINE',
  axis_aligned_bounding_box: 'AXIS_ALIGNED_BOUNDING_BOX',
  ellipsoid: 'ELLIPSOID',
};

/** Which collection each kind of annotation goes to. */
const TYPE_OF: Record<AnnotationKind, PrecomputedType> = {
  point: 'point',
  line: 'line',
  polyline: 'line',
  box: 'axis_aligned_bounding_box',
  ellipsoid: 'ellipsoid',
};

const SEGMENT_BIT = 1n << 63n;
const SEGMENT_SHIFT = 14n;
// A polyline's segments must fit the bits a segment id leaves them.
if (MAX_POINTS > 2 ** Number(SEGMENT_SHIFT)) throw new Error('a polyline holds more segments than its segment ids can number');

export interface PrecomputedEntry {
  id: bigint;
  /** Three numbers per position: one position for a point, two for the others. */
  positions: number[];
  annotation: Annotation;
}

export function isPrecomputedType(value: string): value is PrecomputedType {
  return (PRECOMPUTED_TYPES as readonly string[]).includes(value);
}

function entriesOfOne(a: Annotation): PrecomputedEntry[] {
  const id = BigInt(a.id);
  const p = a.points;
  switch (a.kind) {
    case 'point':
      return [{ id, positions: [...p[0]!], annotation: a }];
    case 'line':
    case 'ellipsoid':
      return [{ id, positions: [...p[0]!, ...p[1]!], annotation: a }];
    case 'box': {
      const lo = [0, 1, 2].map((axis) => Math.min(p[0]![axis]!, p[1]![axis]!));
      const hi = [0, 1, 2].map((axis) => Math.max(p[0]![axis]!, p[1]![axis]!));
      return [{ id, positions: [...lo, ...hi], annotation: a }];
    }
    case 'polyline':
      return p.slice(1).map((end, k) => ({ id: SEGMENT_BIT + (id << SEGMENT_SHIFT) + BigInt(k), positions: [...p[k]!, ...end], annotation: a }));
  }
}

/** The entries of collection `type`, in id order of their annotations. Only host ids (decimal counters) are listed. */
export function entriesOf(type: PrecomputedType, annotations: readonly Annotation[]): PrecomputedEntry[] {
  return annotations.filter((a) => TYPE_OF[a.kind] === type && /^\d{1,15}$/.test(a.id)).flatMap(entriesOfOne);
}
