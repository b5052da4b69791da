/**
 * @module lod-sources
 * The surfaces a level set is built from, in their stored model coordinates. A labels
 * volume's segment is its surface-nets surface in voxel coordinates (x, y, z = column, row,
 * slice: grid and quantisation land on whole voxels, and float32 keeps them exact), with the
 * volume's spacing and origin as the transform into physical units; a mesh result's one
 * surface is its own vertices, whose coordinates are already physical (identity transform).
 */
import { MeshBuilder } from '../geometry/mesh-builder.ts';
import { addSegmentSurface } from '../labels/segment-surface.ts';
import { voxelFrameOf } from '../labels/segment-mesh.ts';
import { spatialShape } from '../labels/label-index.ts';
import type { StoredResult, StoredVolume } from '../results/stored-result.ts';
import type { LodSource } from './segment-lods.ts';
import type { LabelRegion } from './region-labels.ts';

type StoredMesh = Extract<StoredResult, { type: 'mesh' }>;

/** The identity as a 3 × 4 row-major transform. */
export const IDENTITY = [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0];

/** The transform from voxel coordinates (x, y, z) into a volume's physical units. */
export function voxelTransform(volume: StoredVolume): number[] {
  const { spacing, origin } = voxelFrameOf(volume);
  const [sz, sy, sx] = spacing;
  const [oz, oy, ox] = origin;
  return [sx, 0, 0, ox, 0, sy, 0, oy, 0, 0, sz, oz];
}

/**
 * Segment `id` of a labels volume, whose voxels lie in `box` (first z, y, x, then last);
 * `triangles`, when counted before (the label index's faces), sizes the arrays once: a closed surface
 * has about half as many vertices as triangles, and arrays grown by doubling would hold up to
 * twice what a large surface needs.
 */
export function labelSource(volume: StoredVolume, id: number, box: ArrayLike<number>, triangles = 0): LodSource {
  const builder = new MeshBuilder(Math.max(4096, Math.ceil(triangles / 2) + 1024));
  addSegmentSurface(volume.data, spatialShape(volume.shape), id, box, { spacing: [1, 1, 1], origin: [0, 0, 0] }, builder);
  return builtSource(builder, voxelTransform(volume));
}

/**
 * Segment `id` from `region`, a box of its volume holding all of the segment's voxels; `box`
 * (first z, y, x, then last) is in the volume's coordinates. The surface is made with the
 * region's first voxel as its origin, so each vertex is where the whole volume's surface puts it,
 * to the bit (whole voxel offsets added to float32 fractions, exact in float64), and the set
 * built is the whole volume's byte for byte; `transform` is the volume's.
 */
export function regionSource(region: LabelRegion, id: number, box: ArrayLike<number>, triangles: number, transform: number[]): LodSource {
  const builder = new MeshBuilder(Math.max(4096, Math.ceil(triangles / 2) + 1024));
  const [z0, y0, x0] = region.from;
  const local = Array.from(box, (v, k) => v - region.from[k % 3]!);
  addSegmentSurface(region.data, region.shape, id, local, { spacing: [1, 1, 1], origin: [z0, y0, x0] }, builder);
  return builtSource(builder, transform);
}

/** The surface `builder` holds, with `transform`. */
function builtSource(builder: MeshBuilder, transform: number[]): LodSource {
  return { positions: builder.positions.subarray(0, builder.vertexCount * 3), indices: builder.indices.subarray(0, builder.indexCount), transform };
}

/** A mesh result's one surface. */
export function meshSource(mesh: StoredMesh): LodSource {
  return { positions: mesh.vertices, indices: mesh.indices, transform: IDENTITY };
}
