/**
 * @module dtypes
 * Element types that may appear in an envelope or typed result, with their typed array
 * constructors. Shared by the encoders, the decoders (host and client) and the JSON result
 * writer. No Node-only APIs: the browser client imports it too.
 */

export const TYPED_ARRAYS = {
  uint8: Uint8Array,
  int8: Int8Array,
  uint16: Uint16Array,
  int16: Int16Array,
  uint32: Uint32Array,
  int32: Int32Array,
  float32: Float32Array,
  float64: Float64Array,
} as const;

export type DType = keyof typeof TYPED_ARRAYS;
export type AnyTypedArray = InstanceType<(typeof TYPED_ARRAYS)[DType]> | Uint8ClampedArray;

export function isDType(value: unknown): value is DType {
  return typeof value === 'string' && Object.hasOwn(TYPED_ARRAYS, value);
}

/** The dtype name of a typed array (`Uint8ClampedArray` counts as `uint8`). */
export function dtypeOf(array: AnyTypedArray): DType {
  if (array instanceof Uint8ClampedArray) return 'uint8';
  for (const [name, ctor] of Object.entries(TYPED_ARRAYS)) {
    if (array instanceof ctor) return name as DType;
  }
  throw new TypeError('not a supported typed array');
}

/** NumPy's type string of each dtype, little-endian (`.npy` headers, Zarr v2 `.zarray`). */
export const NUMPY_TYPESTR: Readonly<Record<DType, string>> = {
  uint8: '|u1',
  int8: '|i1',
  uint16: '<u2',
  int16: '<i2',
  uint32: '<u4',
  int32: '<i4',
  float32: '<f4',
  float64: '<f8',
};

/** The dtype of each NumPy kind and size, the type strings above without their byte order (`f4`, `u2`). */
export const NUMPY_KINDS = Object.fromEntries(Object.entries(NUMPY_TYPESTR).map(([dtype, typestr]) => [typestr.slice(1), dtype])) as Record<string, DType>;
