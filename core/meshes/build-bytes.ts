/**
 * @module build-bytes
 * The most memory building a level set holds, told from its level-0 triangles before anything
 * is made, so that a build the host's memory cannot take is refused at once rather than started
 * and ended by the system. A surface built whole holds its cut (float64 grid coordinates,
 * normals, the cut's new vertices) and every fragment at once; one built in pieces
 * (block-lods.ts) holds the surface itself, its blocks' shares and every level's encoded
 * fragments (twice, while they are packed), and one block's whole build at a time.
 */
import { PIECE_TRIANGLES } from './block-lods.ts';

/** Bytes a build of the whole surface holds per triangle, at most (measured: see docs/meshes.md). */
export const WHOLE_BYTES_PER_TRIANGLE = 250;

/**
 * Bytes a build in pieces holds per level-0 triangle beside its one block. Counted, it would be
 * about 60: the surface (12 of indices, 6 of positions), the blocks' shares (4, and their
 * margins), the vertex map (2), every level's fragments until they are packed (about 20) and
 * their encodings (about 10, twice while packed). Measured, a 6.47-million-triangle gyroid
 * built in pieces of 2^20 peaked at 1,634 MiB in one process (its own 150 MiB aside, about 240
 * a triangle), so this is what a build is taken to hold until the difference is found.
 */
export const PIECE_BYTES_PER_TRIANGLE = 240;

/** The bytes a build of a surface of `triangles` triangles holds at most, about. */
export function buildBytes(triangles: number, pieces = PIECE_TRIANGLES): number {
  if (triangles <= pieces) return triangles * WHOLE_BYTES_PER_TRIANGLE;
  return triangles * PIECE_BYTES_PER_TRIANGLE + pieces * WHOLE_BYTES_PER_TRIANGLE;
}
