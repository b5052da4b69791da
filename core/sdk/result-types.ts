/**
 * @module result-types
 * The typed results a plugin function returns. Every array is a typed array, so a result can
 * cross between threads (and be written to a socket) without being copied element by element.
 */

/** The four kinds of result a specimen function can return, as they appear on the wire. */
export type ResultType = 'mesh' | 'volume' | 'point_cloud' | 'image';

/**
 * A triangle mesh. `vertices` and `normals` are flat x,y,z triples; `indices` are flat
 * triangle corner indices into the vertex list.
 */
export interface MeshResult {
  readonly type?: 'mesh';
  vertices: Float32Array;
  indices: Uint32Array;
  /** One normal per vertex (flat x,y,z). Omit it and clients compute their own. */
  normals?: Float32Array;
  /**
   * Per-vertex RGB, three values per vertex: bytes 0..255 or floats 0..1. Omit it and
   * clients use their own material colour. Clients that do not know it ignore it.
   */
  colors?: Uint8Array | Float32Array;
}

/** Element types a volume may carry, with the typed array that holds each. */
export interface VolumeArrays {
  uint8: Uint8Array;
  int8: Int8Array;
  uint16: Uint16Array;
  int16: Int16Array;
  uint32: Uint32Array;
  int32: Int32Array;
  float32: Float32Array;
  float64: Float64Array;
}

/** The dtype names a volume may declare. */
export type VolumeDType = keyof VolumeArrays;

/** A volume whose `data` array matches its declared `dtype`. */
export type VolumeOf<D extends VolumeDType> = {
  readonly type?: 'volume';
  /** Dimensions in C order (slowest axis first), e.g. `[depth, height, width]`. */
  shape: number[];
  dtype: D;
  /** The samples in C order. */
  data: VolumeArrays[D];
  /** Physical size of one voxel along each axis. */
  spacing?: number[];
  /** Physical position of the first voxel. */
  origin?: number[];
  /** Length unit of `spacing` and `origin` (`micrometer`, `mm`, ...): shown on OME-Zarr axes. */
  unit?: string;
  /**
   * A segmentation: each sample is a label id (0 is background). Only for uint8, uint16 and
   * uint32 volumes. Viewers draw it in categorical colours; its pyramid never averages ids.
   */
  labels?: boolean;
  /** Names of label ids (`{"3": "nucleus"}`). */
  label_names?: Record<string, string>;
  /** Colours of label ids (`{"3": "#ff8800"}`). */
  label_colors?: Record<string, string>;
  /**
   * The axes of `shape` in NGFF order: `zyx` (the default), or with channels and/or time
   * (`czyx`, `tzyx`, `tczyx`). `spacing` and `origin` stay spatial (three values).
   */
  axes?: 'zyx' | 'czyx' | 'tzyx' | 'tczyx';
  /** One entry per channel: its name, colour (`#rrggbb`) and display window. */
  channels?: { name?: string; color?: string; window?: [number, number] }[];
  /** The time between steps, in `time_unit`. */
  time_step?: number;
  /** The unit of `time_step` (`second`, `millisecond`, ...). */
  time_unit?: string;
  /** Three channels that are the components (x, y, z) of a vector at each voxel. */
  vector?: boolean;
};

/** A scalar volume. `dtype` and `data` must agree (checked by the type system). */
export type VolumeResult = { [D in VolumeDType]: VolumeOf<D> }[VolumeDType];

/** A point cloud: flat x,y,z positions with optional per-point colours or scalars. */
export interface PointCloudResult {
  readonly type?: 'point_cloud';
  points: Float32Array;
  /** Per-point RGB: bytes 0..255 or floats 0..1, three values per point. */
  colors?: Uint8Array | Float32Array;
  /** One scalar value per point (for colour maps). */
  scalars?: Float32Array;
}

/** Element types an image may carry. */
export type ImageDType = 'uint8' | 'uint16' | 'float32';

/** A raster image, row-major, channels last. */
export interface ImageResult {
  readonly type?: 'image';
  width: number;
  height: number;
  /** 1 (grey), 2 (grey+alpha), 3 (RGB) or 4 (RGBA). */
  channels: 1 | 2 | 3 | 4;
  /** Defaults to the dtype implied by `data` (`uint8` for a Uint8Array). */
  dtype?: ImageDType;
  data: Uint8Array | Uint8ClampedArray | Uint16Array | Float32Array;
}

/** Any typed result. */
export type SpecimenResult = MeshResult | VolumeResult | PointCloudResult | ImageResult;

/** A result tagged with its kind, as the host stores and encodes it. */
export type TaggedResult =
  | (MeshResult & { type: 'mesh' })
  | (VolumeResult & { type: 'volume' })
  | (PointCloudResult & { type: 'point_cloud' })
  | (ImageResult & { type: 'image' });
