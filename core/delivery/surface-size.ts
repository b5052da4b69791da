/**
 * @module surface-size
 * A segment surface's size told before it is made, in the format asked, so a delivery is bounded
 * by its output as an upload is by its input; and a mesh's size in that format once it is made,
 * before any byte of it is sent. Each label's surface is estimated from its label index entry: at most
 * six faces per voxel, and about its bounding box's surface for a compact label. The lesser of
 * the two is near the truth both for a compact label (a large blob: its box) and for one
 * scattered in small pieces through the volume (its voxels' own faces), and it is never below
 * the least surface that many voxels can have.
 */
import { createHostError } from '../errors.ts';
import type { LabelIndex } from '../labels/label-index.ts';
import type { MeshResult } from '../sdk/result-types.ts';
import type { DeliveryOptions } from './delivery-options.ts';
import { countsOf, meshFormatBytes, surfaceFormatBytes, triangleBytes } from './mesh-format-bytes.ts';

/** About how many surface-nets faces the surfaces of the labels in `index` have. */
export function surfaceFaces(index: LabelIndex): number {
  let faces = 0;
  for (let k = 0; k < index.ids.length; k++) {
    const [z0, y0, x0, z1, y1, x1] = index.boxes.subarray(k * 6, k * 6 + 6);
    const dz = z1! - z0! + 1, dy = y1! - y0! + 1, dx = x1! - x0! + 1;
    faces += Math.min(6 * index.counts[k]!, 2 * (dz * dy + dy * dx + dz * dx));
  }
  return faces;
}

/** About how many triangles the surfaces of the labels in `index` have (two a face). */
export function surfaceTriangles(index: LabelIndex): number {
  return 2 * surfaceFaces(index);
}

/** What a delivery of a surface asks, for the check: the segment, and the rest of its options (format, max_triangles ...). */
export interface SurfaceAsk extends DeliveryOptions {
  segment: number | 'all';
}

/** The format's name as a message says it. */
const named = (options: DeliveryOptions): string => (options.format ?? 'envelope').toUpperCase();

/** How to ask for less than `limit` bytes in the format asked. */
function askLess(options: DeliveryOptions, limit: number, segments: boolean): string {
  const fits = Math.floor(limit / triangleBytes(options.format ?? 'envelope', options));
  return `with max_triangles=${fits} or fewer${segments ? ', or one segment=ID at a time' : ''}`;
}

/**
 * Refuses (413, before anything is built) a surface whose delivered mesh, in the format asked,
 * would pass `limit` bytes, or whose full surface, made before any simplifying, would pass
 * `buildLimit` bytes of memory.
 */
export function checkSurfaceSize(index: LabelIndex, ask: SurfaceAsk, limit: number, buildLimit: number): void {
  const faces = surfaceFaces(index);
  const painted = ask.segment === 'all';
  const format = ask.format ?? 'envelope';
  const full = surfaceFormatBytes('envelope', faces, painted, ask);
  const asked = surfaceFormatBytes(format, faces, painted, ask);
  const delivered = ask.max_triangles === undefined ? asked : Math.min(asked, ask.max_triangles * triangleBytes(format, ask));
  if (delivered <= limit && full <= buildLimit) return;
  const what = `segment=${ask.segment} of this labels volume (${index.ids.length} label${index.ids.length === 1 ? '' : 's'}) as ${named(ask)}`;
  if (full > buildLimit) {
    const less = 'with one segment=ID at a time (its surface is made whole before any max_triangles applies)';
    throw createHostError('SPC_ERR_DELIVERY_TOO_LARGE', what, String(full), String(buildLimit), less);
  }
  throw createHostError('SPC_ERR_DELIVERY_TOO_LARGE', what, String(delivered), String(limit), askLess(ask, limit, true));
}

/**
 * Refuses (413, before a byte is sent) `mesh` when its bytes in the format `options` asks would
 * pass `limit`: STL and PLY known exactly from its counts, the envelope and GLB bounded by
 * them, OBJ estimated (its writer then stops at the limit itself). `what` names it in the message.
 */
export function checkMeshBytes(mesh: MeshResult, options: DeliveryOptions, limit: number, what: string, segments = false): void {
  const bytes = meshFormatBytes(options.format ?? 'envelope', countsOf(mesh), options);
  if (bytes <= limit) return;
  throw createHostError('SPC_ERR_DELIVERY_TOO_LARGE', `${what} as ${named(options)}`, String(bytes), String(limit), askLess(options, limit, segments));
}

/** The 413 of a mesh whose writer (OBJ: text) stopped once its output passed `limit`, at `over` bytes. */
export function writerStopped(format: string, over: number, limit: number): Error {
  const less = 'with max_triangles set lower, or another format (binary STL, PLY or GLB are smaller than text)';
  return createHostError('SPC_ERR_DELIVERY_TOO_LARGE', `this mesh as ${format.toUpperCase()}`, `more than ${over}`, String(limit), less);
}
