/**
 * @module volume-frame
 * Where a volume's voxels sit in physical space: the one mapping the host, the viewer (page
 * and VR) and plugins share, so a mark placed on a voxel anywhere measures the same.
 *
 * A volume's `shape`, `spacing` and `origin` are in C order (`[z, y, x]`, slowest axis first;
 * with channels or time the last three axes of `shape` are the spatial ones), while points in
 * physical space are `(x, y, z)`: the fastest axis of the data runs along x. The centre of the
 * voxel with indices `(i, j, k)` (x, y, z) lies at `origin + index × spacing` on each axis:
 * `origin` is the first voxel's centre, as OME-Zarr's translation is. A voxel fills the cube of
 * one spacing around its centre, so the volume spans from half a voxel before the first centre
 * to half a voxel past the last.
 */

/** A point or a vector `(x, y, z)`. */
export type Triple = [number, number, number];

/** What a volume says of its grid (a `VolumeResult`, an envelope's preamble, a decoded volume). */
export interface VolumeGrid {
  shape: readonly number[];
  spacing?: readonly number[] | null;
  origin?: readonly number[] | null;
}

/** A volume's grid in physical axis order: voxel counts, voxel size and first centre, each `(x, y, z)`. */
export interface VolumeFrame {
  size: Triple;
  spacing: Triple;
  origin: Triple;
}

/** The three spatial values of a C-ordered list, as `(x, y, z)`; `fallback` where it has fewer than three. */
function spatial(values: readonly number[] | null | undefined, fallback: number, fromShape = false): Triple {
  const list = values ?? [];
  const at = (fromEnd: number): number => {
    const value = list.length >= (fromShape ? fromEnd : 3) ? list[list.length - fromEnd] : undefined;
    return typeof value === 'number' && Number.isFinite(value) ? value : fallback;
  };
  return [at(1), at(2), at(3)];
}

/** The frame of a volume: spacing 1 and origin 0 where the volume states none; a 2-D shape is one voxel deep. */
export function volumeFrameOf(grid: VolumeGrid): VolumeFrame {
  return { size: spatial(grid.shape, 1, true), spacing: spatial(grid.spacing, 1), origin: spatial(grid.origin, 0) };
}

/** The physical centre of voxel `(i, j, k)` (indices along x, y, z; fractions allowed). */
export function voxelCentre(frame: VolumeFrame, voxel: Triple): Triple {
  return [0, 1, 2].map((a) => frame.origin[a]! + voxel[a]! * frame.spacing[a]!) as Triple;
}

/** The continuous voxel coordinates of a physical point (a voxel's centre has whole ones). */
export function voxelCoordinates(frame: VolumeFrame, point: readonly number[]): Triple {
  return [0, 1, 2].map((a) => (point[a]! - frame.origin[a]!) / frame.spacing[a]!) as Triple;
}

/** The voxel whose cube holds a physical point, as whole indices `(i, j, k)`; null outside the volume. */
export function voxelAt(frame: VolumeFrame, point: readonly number[]): Triple | null {
  const voxel = voxelCoordinates(frame, point).map((v, a) => {
    const n = frame.size[a]!;
    // The far face belongs to the last voxel.
    return v >= n - 0.5 && v <= n - 0.5 + 1e-9 ? n - 1 : Math.round(v) + 0; // + 0: no -0
  });
  return voxel.every((v, a) => v >= 0 && v < frame.size[a]!) ? (voxel as Triple) : null;
}

/** The physical box the volume fills: from the first voxel's near faces to the last one's far faces. */
export function volumeBox(frame: VolumeFrame): { min: Triple; max: Triple } {
  const ends = [0, 1, 2].map((a) => {
    const first = frame.origin[a]! - frame.spacing[a]! / 2;
    const last = first + frame.size[a]! * frame.spacing[a]!;
    return [Math.min(first, last), Math.max(first, last)] as const;
  });
  return { min: ends.map((e) => e[0]) as Triple, max: ends.map((e) => e[1]) as Triple };
}

/** The centre of the box the volume fills. */
export function volumeCentre(frame: VolumeFrame): Triple {
  const { min, max } = volumeBox(frame);
  return [0, 1, 2].map((a) => (min[a]! + max[a]!) / 2) as Triple;
}
