/**
 * @module mesh-level-types
 * The JSON documents of a result's levels of detail as the page and WebXR viewer read them
 * (`/api/results/{result_id}/meshes/`): the list of segments, a segment's levels with its
 * coarsest fragments, and one level's fragments. Boxes are in the result's physical units
 * (min x, y, z, then max x, y, z); a fragment's `cell` is its octree cell at its level, whose
 * parent cell one level coarser is each coordinate halved (rounded down).
 */

/**
 * The header of a `/data` answer whose result has levels of detail: where they are
 * (`/api/results/{result_id}/meshes/`). Absent, the result has none.
 */
export const MESH_LEVELS_HEADER = 'vitrine-mesh-levels';

/** `segments.json`: every surface with levels (a mesh result's one surface is segment 1). */
export interface MeshSegmentList {
  /** 3 × 4 row-major, stored model coordinates into physical units. */
  transform: number[];
  segments: { id: number; voxels?: number; box?: number[] }[];
}

/** One fragment of a level: where it is, what it holds, where its GLB is (relative to `meshes/`). */
export interface MeshFragmentEntry {
  level: number;
  /** Its place in its level (Z-curve order). */
  index: number;
  cell: [number, number, number];
  triangles: number;
  bytes: number;
  box: number[];
  glb: string;
}

/** `{segment}.json`: a segment's levels, level 0 the finest, and its coarsest level's fragments. */
export interface MeshSegmentLevels {
  segment: number;
  levels: number;
  /** The side of a level-0 cell, in stored model coordinates (a level-L cell's is 2^L times it). */
  chunk_shape: [number, number, number];
  grid_origin: [number, number, number];
  transform: number[];
  level_scales: number[];
  level_triangles: number[];
  level_fragments: number[];
  coarsest: MeshFragmentEntry[];
}

/** `{segment}/{level}.json`: one level's fragments. */
export interface MeshLevelFragments {
  segment: number;
  level: number;
  fragments: MeshFragmentEntry[];
}

/**
 * Segments per coarse bundle, `coarse/{k}`: the segments at places k·N to k·N + N − 1 of
 * `segments.json`, each one's `{segment}.json` and its coarsest fragments' GLB in one answer.
 * A first picture of many surfaces is then a few requests rather than two per surface (a
 * browser has six connections to a host, and each request costs it a round trip).
 */
export const COARSE_BUNDLE_SEGMENTS = 16;

/**
 * A coarse bundle's bytes: a uint32 (little-endian) byte length of the JSON that follows (its
 * segments' `{segment}.json`, in order), then every listed coarsest fragment's GLB, in that
 * order, each `bytes` long.
 */
export type MeshCoarseBundle = MeshSegmentLevels[];
