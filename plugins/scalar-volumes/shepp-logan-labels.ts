/**
 * @module shepp-logan-labels
 * The segmentation of the 3D Shepp-Logan phantom: each voxel labelled by the innermost
 * ellipsoid that holds it, on the same grid as `sampleSheppLogan`, so it lies voxel for voxel
 * on the phantom. The ground truth a segmentation method would be judged against: skull,
 * brain, the two ventricles and the lesions, each its own label.
 */
import { SHEPP_LOGAN_ELLIPSOIDS } from './shepp-logan.ts';

/** The label of each ellipsoid of SHEPP_LOGAN_ELLIPSOIDS, in order (the skull is what the brain leaves of the head). */
const LABEL_OF_ELLIPSOID = [1, 2, 3, 4, 5, 6, 7, 8, 8, 8];

/** The name of each label. */
export const SHEPP_LOGAN_LABEL_NAMES: Record<string, string> = {
  1: 'skull',
  2: 'brain',
  3: 'right ventricle',
  4: 'left ventricle',
  5: 'frontal lesion',
  6: 'upper small lesion',
  7: 'lower small lesion',
  8: 'basal spots',
};

/** Labels on a `size`³ grid (C order z, y, x): the last ellipsoid in order that holds a voxel wins. */
export function labelSheppLogan(size: number): Uint8Array {
  const out = new Uint8Array(size * size * size);
  const coordinate = (i: number): number => ((i + 0.5) / size) * 2 - 1;
  SHEPP_LOGAN_ELLIPSOIDS.forEach(({ axes, centre, angle }, k) => {
    const label = LABEL_OF_ELLIPSOID[k]!;
    const cos = Math.cos((angle * Math.PI) / 180), sin = Math.sin((angle * Math.PI) / 180);
    const [a, b, c] = axes;
    for (let zi = 0; zi < size; zi++) {
      const dz = (coordinate(zi) - centre[2]) / c;
      if (dz * dz > 1) continue;
      for (let yi = 0; yi < size; yi++) {
        const dy = coordinate(yi) - centre[1];
        for (let xi = 0; xi < size; xi++) {
          const dx = coordinate(xi) - centre[0];
          const u = (cos * dx + sin * dy) / a;
          const v = (-sin * dx + cos * dy) / b;
          if (u * u + v * v + dz * dz <= 1) out[(zi * size + yi) * size + xi] = label;
        }
      }
    }
  });
  return out;
}
