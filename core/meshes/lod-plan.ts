/**
 * @module lod-plan
 * How a surface is cut into levels of detail before any is made: how many levels, the side of
 * the finest octree cell and where the grid starts. A surface's triangles per unit of area
 * fall to a quarter at each coarser level while a cell's area grows four times, so every
 * fragment, fine or coarse, holds about the same number of triangles. The number of levels is
 * chosen by the triangles alone, so that the coarsest level (one cell around the whole
 * surface) holds about FRAGMENT_TRIANGLES: that is what every viewer draws first, so it stays
 * small whatever the surface's shape. The finest cells are then as small as that many levels
 * need, but never so small that cutting outweighs them (MIN_CELL_EDGES): where they would be,
 * the root cell is larger than the surface, which then sits in one cell at every level at least
 * as large as itself. Cells are cubes in the surface's own ("stored model") coordinates, and
 * the grid starts just below the surface's bounding box.
 */

/** About how many triangles one fragment holds, at every level. */
export const FRAGMENT_TRIANGLES = 2048;

/**
 * A level fewer where it leaves the coarsest within this many quarterings over
 * FRAGMENT_TRIANGLES: the coarsest level then holds between about 724 and 2,896 triangles
 * (2,048 × 4^±0.25 and a bit), never a few hundred, which a simplifier's miss would take
 * under 512.
 */
export const LEVEL_SLACK = 0.25;

/** The most levels a surface gets (a root cell of 2^11 finest cells a side). */
export const MAX_LEVELS = 12;

/** Quantisation steps along a cell's side: positions are integers 0..CELL_STEPS (10 bits). */
export const CELL_STEPS = 1023;

/** The bits each quantised coordinate takes (Neuroglancer's `vertex_quantization_bits`). */
export const QUANTIZATION_BITS = 10;

export interface LodPlan {
  /** Levels of detail, level 0 the finest. */
  levels: number;
  /** The side of a level-0 cell (level L's is this times 2^L). */
  chunk: number;
  /** The grid's first corner (x, y, z). */
  origin: [number, number, number];
}

/**
 * Cells at least this many of the surface's edges a side: cutting a surface at cell faces
 * adds triangles in proportion to its edge length over the cells' side, about a tenth at
 * this size (and twice that at coarser levels, whose edges are longer for cells of the same
 * proportion), so fragments are not made so small that the cuts outweigh them.
 */
export const MIN_CELL_EDGES = 24;

/** A surface over this many triangles is large: its coarsest level should be at most a sixteenth of it in bytes. */
export const LARGE_SURFACE = 65536;

/** The fewest levels of a large surface: a sixty-fourth of its triangles at the coarsest, a sixteenth or less of its bytes. */
export const LARGE_LEVELS = 4;

/**
 * The plan of a surface of `triangles` triangles whose vertices lie in the box `min`..`max`
 * and whose edges are about `edge` long.
 */
export function planLods(min: readonly number[], max: readonly number[], triangles: number, edge: number): LodPlan {
  const extent = Math.max(max[0]! - min[0]!, max[1]! - min[1]!, max[2]! - min[2]!, 0);
  // A little room on every side, so no vertex lies on the root cell's outer faces by rounding.
  const side = extent > 0 ? extent * 1.001 : 1;
  const byTriangles = 1 + Math.max(0, Math.ceil(Math.log(triangles / FRAGMENT_TRIANGLES) / Math.log(4) - LEVEL_SLACK));
  // A large surface gets at least LARGE_LEVELS, so that its coarsest level is a small fraction of it.
  const least = triangles > LARGE_SURFACE ? LARGE_LEVELS : 1;
  const levels = Math.max(1, Math.min(MAX_LEVELS, Math.max(least, byTriangles)));
  const chunk = Math.max(side / 2 ** (levels - 1), extent > 0 ? Math.min(side, MIN_CELL_EDGES * edge) : 0);
  const pad = (side - extent) / 2;
  const origin = [0, 1, 2].map((a) => min[a]! - pad) as [number, number, number];
  return { levels, chunk, origin };
}
