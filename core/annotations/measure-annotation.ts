/**
 * @module measure-annotation
 * What the host measures of an annotation, in the physical units of the frame its points are
 * in: the length of a line or a polyline (the sum of its segments), the volume of a box
 * (|Δx·Δy·Δz| of its opposite corners) or of an ellipsoid (4/3·π·a·b·c from its radii).
 * Points and lines measure nothing. Distances are summed in double precision, so a ruler
 * between two voxel centres reads what `voxelCentre` (sdk/volume-frame.ts) places them at.
 */
import type { Annotation, AnnotationKind, Vec3 } from '../wire/scene-types.ts';

export type Measurements = Pick<Annotation, 'length' | 'volume'>;

function distance(a: Vec3, b: Vec3): number {
  return Math.hypot(b[0] - a[0], b[1] - a[1], b[2] - a[2]);
}

export function measure(kind: AnnotationKind, points: readonly Vec3[]): Measurements {
  switch (kind) {
    case 'line':
    case 'polyline': {
      let length = 0;
      for (let i = 1; i < points.length; i++) length += distance(points[i - 1]!, points[i]!);
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
