/**
 * @module to-json-result
 * The JSON typed result of /invoke and /jobs/{id}/result : mesh and point-cloud
 * arrays as flat number lists, volume and image data as base64 of their little-endian bytes.
 * Runs on the encode worker thread: a large result takes real time to print and must never
 * hold up the host's event loop.
 */
import { bytesOf } from '../envelope/bytes-of.ts';
import type { StoredResult } from './stored-result.ts';
import { AXES_FIELD_NAMES } from './volume-axes.ts';

function list(array: ArrayLike<number>): string {
  return `[${Array.prototype.join.call(array, ',')}]`;
}

function base64(array: ArrayBufferView): string {
  return JSON.stringify(bytesOf(array).toString('base64'));
}

/** The JSON text of a stored result. */
export function toJsonResult(result: StoredResult): string {
  const parts: string[] = [`{"type":${JSON.stringify(result.type)}`];
  switch (result.type) {
    case 'mesh':
      parts.push(`"vertices":${list(result.vertices)}`, `"indices":${list(result.indices)}`);
      if (result.normals && result.normals.length > 0) parts.push(`"normals":${list(result.normals)}`);
      // JSON cannot tell bytes from floats, so a mesh's colours say which they were.
      if (result.colors) parts.push(`"colors":${list(result.colors)}`, `"colors_dtype":${result.colors instanceof Float32Array ? '"float32"' : '"uint8"'}`);
      break;
    case 'volume':
      parts.push(`"shape":${JSON.stringify(result.shape)}`, `"dtype":${JSON.stringify(result.dtype)}`, `"data":${base64(result.data)}`);
      if (result.spacing) parts.push(`"spacing":${JSON.stringify(result.spacing)}`);
      if (result.origin) parts.push(`"origin":${JSON.stringify(result.origin)}`);
      if (result.valueRange) parts.push(`"value_range":${JSON.stringify(result.valueRange)}`);
      if (result.labels) parts.push(`"labels":true`);
      if (result.labels && result.label_names) parts.push(`"label_names":${JSON.stringify(result.label_names)}`);
      if (result.labels && result.label_colors) parts.push(`"label_colors":${JSON.stringify(result.label_colors)}`);
      for (const name of AXES_FIELD_NAMES) if (result[name] !== undefined) parts.push(`"${name}":${JSON.stringify(result[name])}`);
      break;
    case 'point_cloud':
      parts.push(`"points":${list(result.points)}`);
      if (result.colors) parts.push(`"colors":${list(result.colors)}`);
      if (result.scalars) parts.push(`"scalars":${list(result.scalars)}`);
      break;
    case 'image':
      parts.push(
        `"width":${result.width}`,
        `"height":${result.height}`,
        `"channels":${result.channels}`,
        `"dtype":${JSON.stringify(result.dtype ?? 'uint8')}`,
        `"data":${base64(result.data)}`,
      );
      break;
  }
  return `${parts.join(',')}}`;
}

/** Bytes of array data a result holds (what the JSON size limit counts). */
export function resultByteLength(result: StoredResult): number {
  switch (result.type) {
    case 'mesh':
      return result.vertices.byteLength + result.indices.byteLength + (result.normals?.byteLength ?? 0) + (result.colors?.byteLength ?? 0);
    case 'volume':
      return result.data.byteLength;
    case 'point_cloud':
      return result.points.byteLength + (result.colors?.byteLength ?? 0) + (result.scalars?.byteLength ?? 0);
    case 'image':
      return result.data.byteLength;
  }
}
