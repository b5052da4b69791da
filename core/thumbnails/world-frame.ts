/**
 * @module world-frame
 * Where each layer of a room stands in the room's frame, for a picture that draws them
 * together: a mesh's or a cloud's positions and a volume's voxel box (voxel (x, y, z) centred
 * at `origin + spacing × index`, both in C order [z, y, x]) carried by the layer's affine
 * (4×4, row-major; identity when absent). Their joint bounds frame one camera for every layer.
 */
import type { SpecimenResult, VolumeResult } from 'vitrine';
import { applyAffine } from '../annotations/layer-frame.ts';

export type Vec3 = [number, number, number];

/** Flat x,y,z positions carried by `affine` (the same array without one). */
export function placed(positions: Float32Array, affine: readonly number[] | undefined): Float32Array {
  if (!affine) return positions;
  const out = new Float32Array(positions.length);
  for (let i = 0; i < positions.length; i += 3) out.set(applyAffine(affine, [positions[i]!, positions[i + 1]!, positions[i + 2]!]), i);
  return out;
}

/** A volume's spatial sizes [nz, ny, nx] and its spacing and origin, C order. */
export function voxelGrid(volume: VolumeResult): { shape: Vec3; spacing: Vec3; origin: Vec3 } {
  const s = volume.shape.slice(-3);
  const shape: Vec3 = s.length === 3 ? [s[0]!, s[1]!, s[2]!] : [1, s[0] ?? 1, s[1] ?? 1];
  const three = (v: readonly number[] | undefined, fallback: number): Vec3 =>
    v?.length === 3 && v.every(Number.isFinite) ? [v[0]!, v[1]!, v[2]!] : [fallback, fallback, fallback];
  const spacing = three(volume.spacing, 1).map((x) => (x > 0 ? x : 1)) as Vec3;
  return { shape, spacing, origin: three(volume.origin, 0) };
}

/** The eight corners of a volume's voxel box in its own physical frame (x, y, z). */
export function volumeCorners(volume: VolumeResult): Vec3[] {
  const { shape, spacing, origin } = voxelGrid(volume);
  const lo = [0, 1, 2].map((k) => origin[k]! - spacing[k]! / 2);
  const hi = [0, 1, 2].map((k) => origin[k]! + (shape[k]! - 0.5) * spacing[k]!);
  const corners: Vec3[] = [];
  for (const z of [lo[0]!, hi[0]!]) for (const y of [lo[1]!, hi[1]!]) for (const x of [lo[2]!, hi[2]!]) corners.push([x, y, z]);
  return corners;
}

/** The bounds of `result` in the room's frame, or null for a result with no place (an image). */
export function worldBounds(result: SpecimenResult, affine: readonly number[] | undefined): { min: Vec3; max: Vec3 } | null {
  let points: Float32Array;
  if ('vertices' in result) points = result.vertices;
  else if ('points' in result) points = result.points;
  else if ('shape' in result) points = Float32Array.from(volumeCorners(result).flat());
  else return null;
  const min: Vec3 = [Infinity, Infinity, Infinity];
  const max: Vec3 = [-Infinity, -Infinity, -Infinity];
  for (let i = 0; i < points.length; i += 3) {
    const point: Vec3 = [points[i]!, points[i + 1]!, points[i + 2]!];
    const p = affine ? applyAffine(affine, point) : point;
    for (let k = 0; k < 3; k++) {
      if (p[k]! < min[k]!) min[k] = p[k]!;
      if (p[k]! > max[k]!) max[k] = p[k]!;
    }
  }
  return Number.isFinite(min[0]) ? { min, max } : null;
}
