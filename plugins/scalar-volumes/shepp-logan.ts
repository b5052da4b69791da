/**
 * @module shepp-logan
 * The 3D Shepp-Logan head phantom: ten ellipsoids whose densities add up (after Kak & Slaney,
 * with the higher-contrast values of Toft's "modified" phantom that make the soft-tissue
 * features visible). Coordinates are normalised to [-1, 1] on every axis.
 */

/** One ellipsoid: added density, semi-axes, centre, rotation about the z axis in degrees. */
interface Ellipsoid {
  density: number;
  axes: [number, number, number];
  centre: [number, number, number];
  angle: number;
}

const E = (density: number, a: number, b: number, c: number, x: number, y: number, z: number, angle: number): Ellipsoid => ({
  density, axes: [a, b, c], centre: [x, y, z], angle,
});

/** Skull, brain, two ventricles, and the small tumours and vessels of the classic phantom. */
export const SHEPP_LOGAN_ELLIPSOIDS: readonly Ellipsoid[] = [
  E(1.0, 0.69, 0.92, 0.81, 0, 0, 0, 0),
  E(-0.8, 0.6624, 0.874, 0.78, 0, -0.0184, 0, 0),
  E(-0.2, 0.11, 0.31, 0.22, 0.22, 0, 0, -18),
  E(-0.2, 0.16, 0.41, 0.28, -0.22, 0, 0, 18),
  E(0.1, 0.21, 0.25, 0.41, 0, 0.35, -0.15, 0),
  E(0.1, 0.046, 0.046, 0.05, 0, 0.1, 0.25, 0),
  E(0.1, 0.046, 0.046, 0.05, 0, -0.1, 0.25, 0),
  E(0.1, 0.046, 0.023, 0.05, -0.08, -0.605, 0, 0),
  E(0.1, 0.023, 0.023, 0.02, 0, -0.606, 0, 0),
  E(0.1, 0.023, 0.046, 0.02, 0.06, -0.605, 0, 0),
];

/**
 * Samples the phantom on a `size`³ grid (C order z, y, x) and returns densities in 0..1
 * (the skull is 1, the brain 0.2).
 */
export function sampleSheppLogan(size: number): Float32Array {
  const out = new Float32Array(size * size * size);
  const coordinate = (i: number): number => ((i + 0.5) / size) * 2 - 1;
  for (const { density, axes, centre, angle } of SHEPP_LOGAN_ELLIPSOIDS) {
    const cos = Math.cos((angle * Math.PI) / 180), sin = Math.sin((angle * Math.PI) / 180);
    const [a, b, c] = axes;
    // Only visit the voxels inside the ellipsoid's bounding box.
    const reach = Math.max(a, b);
    const range = (centreValue: number, extent: number): [number, number] => [
      Math.max(0, Math.floor(((centreValue - extent + 1) / 2) * size - 1)),
      Math.min(size - 1, Math.ceil(((centreValue + extent + 1) / 2) * size)),
    ];
    const [x0, x1] = range(centre[0], reach), [y0, y1] = range(centre[1], reach), [z0, z1] = range(centre[2], c);
    for (let zi = z0; zi <= z1; zi++) {
      const dz = (coordinate(zi) - centre[2]) / c;
      for (let yi = y0; yi <= y1; yi++) {
        const dy = coordinate(yi) - centre[1];
        for (let xi = x0; xi <= x1; xi++) {
          const dx = coordinate(xi) - centre[0];
          const u = (cos * dx + sin * dy) / a;
          const v = (-sin * dx + cos * dy) / b;
          if (u * u + v * v + dz * dz <= 1) {
            const i = (zi * size + yi) * size + xi;
            out[i] = out[i]! + density;
          }
        }
      }
    }
  }
  return out;
}
