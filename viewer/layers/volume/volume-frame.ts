/**
 * @module volume-frame
 * Where a volume stands: its voxels (C order `[d, h, w]`, x fastest; x runs along the scene's
 * X axis, y along Y, z along Z) in physical units, voxel (i, j, k) centred at
 * `origin + spacing × index` (spacing and origin in C order, as results give them). Drawing
 * happens in an inner box of at most 2 units on its longest side, centred on 0 (slices and the
 * ray marcher work there); the outer group scales and moves it to its physical place, so a
 * mesh made from the volume in physical units (a segment's surface) lies where it belongs.
 */
import * as THREE from 'three';
import type { VolumeData } from '../../../core/wire/decoded-types.ts';

export type Axis = 'x' | 'y' | 'z';
export const AXES: readonly Axis[] = ['x', 'y', 'z'];

/** The three spatial axes of `shape`, a 2-D one standing as a single slice. */
function spatialShape(shape: readonly number[]): [number, number, number] {
  const s = shape.length >= 3 ? shape.slice(-3) : [1, ...shape.slice(-2)];
  return [s[0] ?? 1, s[1] ?? 1, s[2] ?? 1];
}

function triple(values: readonly number[] | null, fallback: number): [number, number, number] {
  return values?.length === 3 && values.every(Number.isFinite) ? [values[0]!, values[1]!, values[2]!] : [fallback, fallback, fallback];
}

/** Where a volume stands, as volumeFrame places it. */
export type VolumeFrame = ReturnType<typeof volumeFrame>;

export function volumeFrame(volume: VolumeData) {
  const [d, h, w] = spatialShape(volume.shape);
  const [sz, sy, sx] = triple(volume.spacing, 1).map((s) => (s > 0 ? s : 1)) as [number, number, number];
  const [oz, oy, ox] = triple(volume.origin, 0);
  const count: Record<Axis, number> = { x: w, y: h, z: d };
  const size = { x: w * sx, y: h * sy, z: d * sz };
  const scale = 2 / Math.max(size.x, size.y, size.z);
  const dims: Record<Axis, number> = { x: size.x * scale, y: size.y * scale, z: size.z * scale };
  const inner = new THREE.Group();
  const outer = new THREE.Group();
  outer.add(inner);
  outer.scale.setScalar(1 / scale);
  outer.position.set(ox + ((w - 1) / 2) * sx, oy + ((h - 1) / 2) * sy, oz + ((d - 1) / 2) * sz);
  const data = volume.data;
  /** The inner coordinate along `axis` of the centre of voxel `index`. */
  const offsetOf = (axis: Axis, index: number): number => (count[axis] > 1 ? ((index + 0.5) / count[axis] - 0.5) * dims[axis] : 0);
  return {
    /** Voxels along each axis. */
    count,
    /** The inner box's size in its own units. */
    dims,
    /** Physical placement (the content's object). */
    outer,
    /** The drawing box, centred on 0, `dims` in size. */
    inner,
    sample: (x: number, y: number, z: number): number => data[(z * h + y) * w + x]!,
    /** The voxel at `local` (a point of the inner box), or null outside it. */
    voxelAt(local: THREE.Vector3): Record<Axis, number> | null {
      const out = { x: 0, y: 0, z: 0 };
      for (const axis of AXES) {
        // A point on the box's face (a hit on an outer slice) belongs to the voxel inside.
        const share = local[axis] / dims[axis] + 0.5;
        if (!(share >= -1e-6 && share <= 1 + 1e-6)) return null;
        out[axis] = Math.min(count[axis] - 1, Math.max(0, Math.floor(share * count[axis])));
      }
      return out;
    },
    offsetOf,
    /** The centre of `voxel` in world space (a mark placed on a voxel sits where the host puts that voxel). */
    centreOf(voxel: Record<Axis, number>): THREE.Vector3 {
      inner.updateWorldMatrix(true, false);
      return inner.localToWorld(new THREE.Vector3(offsetOf('x', voxel.x), offsetOf('y', voxel.y), offsetOf('z', voxel.z)));
    },
    /** The voxel along `axis` whose centre is nearest to inner coordinate `at` (not clamped). */
    indexAt: (axis: Axis, at: number): number => Math.floor((at / dims[axis] + 0.5) * count[axis]),
  };
}
