/**
 * @module decoded-types
 * What the client hands back after decoding: typed arrays, whichever way the data travelled
 * (binary envelope from `/data`, or typed result JSON from `/invoke` and `/jobs/{id}/result`).
 */

import type { VolumeAxesInfo } from './scene-types.ts';

/** Element types a volume or image may carry. */
export type NumericDType = 'uint8' | 'int8' | 'uint16' | 'int16' | 'uint32' | 'int32' | 'float32' | 'float64';

/** Any typed array a decoded result may hold. */
export type NumericArray =
  | Uint8Array
  | Int8Array
  | Uint16Array
  | Int16Array
  | Uint32Array
  | Int32Array
  | Float32Array
  | Float64Array;

/**
 * A triangle mesh: flat x,y,z vertices, flat triangle indices, per-vertex normals or null,
 * and per-vertex RGB colours (bytes 0..255 or floats 0..1) only when the mesh has them.
 */
export interface MeshData {
  type: 'mesh';
  vertices: Float32Array;
  indices: Uint32Array;
  normals: Float32Array | null;
  colors?: Uint8Array | Float32Array;
}

/**
 * A volume in C order (slowest axis first). A segmentation (each sample a label id, 0 the
 * background) has `labels: true`, and its `label_names` and `label_colors` keyed by id. A
 * volume with time or channels says so: whole (`/invoke`) with its `axes`, or one step
 * (`/data`) with `step` (which one, and the sizes).
 */
export interface VolumeData extends VolumeAxesInfo {
  type: 'volume';
  shape: number[];
  dtype: NumericDType;
  data: NumericArray;
  spacing: number[] | null;
  origin: number[] | null;
  /** Finite [min, max] of the samples when the host sent it (envelopes), else null. */
  value_range: [number, number] | null;
  labels?: true;
  label_names?: Record<string, string>;
  label_colors?: Record<string, string>;
}

/** A point cloud: flat x,y,z points, optional RGB colours (bytes 0..255 or floats 0..1) and scalars. */
export interface PointCloudData {
  type: 'point_cloud';
  points: Float32Array;
  colors: Uint8Array | Float32Array | null;
  scalars: Float32Array | null;
}

/** A raster image, row-major, channels last. */
export interface ImageData2D {
  type: 'image';
  width: number;
  height: number;
  channels: 1 | 2 | 3 | 4;
  dtype: 'uint8' | 'uint16' | 'float32';
  data: Uint8Array | Uint16Array | Float32Array;
}

/** A static specimen's data file, as served: bytes, content type and file name. */
export interface FileData {
  type: 'file';
  bytes: Uint8Array;
  contentType: string;
  /** From `Content-Disposition`, else the last path segment; may be empty. */
  fileName: string;
}

/** Any decoded typed result. */
export type TypedData = MeshData | VolumeData | PointCloudData | ImageData2D;

/** Whatever `getData` / `load` can return. */
export type SpecimenData = TypedData | FileData;
