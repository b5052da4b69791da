/**
 * @module surface-size
 * A segment surface's size told before it is made, so a delivery is bounded by its output as an
 * upload is by its input. Each label's surface is estimated from its label index entry: at most
 * six faces per voxel, and about its bounding box's surface for a compact label. The lesser of
 * the two is near the truth both for a compact label (a large blob: its box) and for one
 * scattered in small pieces through the volume (its voxels' own faces), and it is never below
 * the least surface that many voxels can have.
 */
import { createHostError } from '../errors.ts';
import type { LabelIndex } from '../labels/label-index.ts';

/** A surface-nets face: about one vertex (position, normal: 24 bytes) and two triangles (24 bytes). */
const FACE_BYTES = 48;
/** Painted surfaces carry an RGB colour per vertex. */
const PAINT_BYTES = 3;
/** A simplified mesh's bytes per triangle kept (12 of indices, half a vertex of 27). */
const TRIANGLE_BYTES = 26;

/** About how many bytes the surfaces of the labels in `index` take (painted: with colours). */
export function surfaceBytes(index: LabelIndex, painted: boolean): number {
  let faces = 0;
  for (let k = 0; k < index.ids.length; k++) {
    const [z0, y0, x0, z1, y1, x1] = index.boxes.subarray(k * 6, k * 6 + 6);
    const dz = z1! - z0! + 1, dy = y1! - y0! + 1, dx = x1! - x0! + 1;
    faces += Math.min(6 * index.counts[k]!, 2 * (dz * dy + dy * dx + dz * dx));
  }
  return Math.ceil(faces * (FACE_BYTES + (painted ? PAINT_BYTES : 0)));
}

/** About how many triangles the surfaces of the labels in `index` have (two a face). */
export function surfaceTriangles(index: LabelIndex): number {
  return Math.ceil((2 * surfaceBytes(index, false)) / FACE_BYTES);
}

/** What a delivery of a surface asks, for the check. */
export interface SurfaceAsk {
  segment: number | 'all';
  max_triangles?: number;
}

/**
 * Refuses (413, before anything is built) a surface whose delivered mesh would pass `limit`
 * bytes, or whose full surface, made before any simplifying, would pass `buildLimit`.
 */
export function checkSurfaceSize(index: LabelIndex, ask: SurfaceAsk, limit: number, buildLimit: number): void {
  const full = surfaceBytes(index, ask.segment === 'all');
  const delivered = ask.max_triangles === undefined ? full : Math.min(full, ask.max_triangles * TRIANGLE_BYTES);
  if (delivered <= limit && full <= buildLimit) return;
  const what = `segment=${ask.segment} of this labels volume (${index.ids.length} label${index.ids.length === 1 ? '' : 's'})`;
  const fits = Math.floor(limit / TRIANGLE_BYTES);
  const less =
    full > buildLimit
      ? `with one segment=ID at a time (its surface is made whole before any max_triangles applies)`
      : `with max_triangles=${fits} or fewer, or one segment=ID at a time`;
  throw createHostError('SPC_ERR_DELIVERY_TOO_LARGE', what, String(delivered > limit ? delivered : full), String(delivered > limit ? limit : buildLimit), less);
}
