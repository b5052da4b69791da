/**
 * @module encode-envelope
 * Envelope v1 for mesh and volume results, as a list of buffers: the preamble, then views
 * onto the typed arrays' own memory. Nothing is concatenated; the caller writes the parts to
 * the socket in order (see `reply-envelope.ts`).
 */
import type { MeshResult, VolumeResult } from '../sdk/result-types.ts';
import { bytesOf } from './bytes-of.ts';
import { encodePreamble } from './preamble.ts';

/** The parts of an envelope and their total length (for `Content-Length`). */
export interface EnvelopeParts {
  parts: Buffer[];
  byteLength: number;
}

function toParts(preamble: object, blocks: ArrayBufferView[]): EnvelopeParts {
  const parts = [encodePreamble(preamble), ...blocks.filter((b) => b.byteLength > 0).map(bytesOf)];
  return { parts, byteLength: parts.reduce((n, p) => n + p.length, 0) };
}

/**
 * Mesh envelope: vertices (float32 ×3), indices (uint32), normals (float32 ×3, omitted when
 * empty), then, only when the mesh has them, per-vertex colours (RGB, `color_dtype` uint8 or
 * float32). The colour block comes last, so a reader that knows only the first three blocks
 * reads them at the same offsets and ignores it.
 */
export function encodeMeshEnvelope(mesh: MeshResult): EnvelopeParts {
  const normals = mesh.normals && mesh.normals.length > 0 ? mesh.normals : undefined;
  const preamble: Record<string, unknown> = {
    type: 'mesh',
    vertex_count: mesh.vertices.length / 3,
    vertex_dtype: 'float32',
    index_count: mesh.indices.length,
    index_dtype: 'uint32',
    normal_count: normals ? normals.length / 3 : 0,
    normal_dtype: 'float32',
  };
  const blocks: ArrayBufferView[] = normals ? [mesh.vertices, mesh.indices, normals] : [mesh.vertices, mesh.indices];
  if (mesh.colors && mesh.colors.length > 0) {
    preamble.color_count = mesh.colors.length / 3;
    preamble.color_dtype = mesh.colors instanceof Float32Array ? 'float32' : 'uint8';
    blocks.push(mesh.colors);
  }
  return toParts(preamble, blocks);
}

/**
 * Volume envelope: one C-order data block. `value_range` is added when given (computing it is
 * a pass over the data, so callers do it off the event loop and pass it in); `extra` fields
 * (a step's `t`, `c` and axis sizes, a volume's channels) follow the usual ones. A
 * segmentation says so (`labels: true`, with its `label_names` and `label_colors` when it has
 * them): optional members, so a reader that does not know them reads the volume as before.
 */
export function encodeVolumeEnvelope(volume: VolumeResult, range?: [number, number], extra: Record<string, unknown> = {}): EnvelopeParts {
  const preamble: Record<string, unknown> = { type: 'volume', shape: volume.shape, dtype: volume.dtype };
  if (volume.spacing) preamble.spacing = volume.spacing;
  if (volume.origin) preamble.origin = volume.origin;
  // The length unit of spacing and origin: without it a client's scale bar can only say "units".
  if (volume.unit) preamble.unit = volume.unit;
  if (range) preamble.value_range = range;
  if (volume.labels) {
    preamble.labels = true;
    if (volume.label_names) preamble.label_names = volume.label_names;
    if (volume.label_colors) preamble.label_colors = volume.label_colors;
  }
  return toParts({ ...preamble, ...extra }, [volume.data]);
}
