/**
 * @module parse-npy
 * A NumPy `.npy` file as a volume: a 3-D array of a simple dtype, in C order (or a Fortran
 * order that has the same bytes). The header's shape is checked against the bytes that follow
 * before anything is allocated, so a header declaring 2^40 elements costs nothing.
 */
import { TYPED_ARRAYS } from '../envelope/dtypes.ts';
import { elementCount, fortranIsCOrder, npyElementType, NpyFormatError, parseNpyHeader } from '../catalog/npy-header.ts';
import type { StoredResult } from '../results/stored-result.ts';
import { expectFinite, fail } from './format-error.ts';

export interface VolumeGeometryHint {
  spacing?: number[] | null;
  origin?: number[] | null;
}

function header(bytes: Buffer): ReturnType<typeof parseNpyHeader> {
  try {
    return parseNpyHeader(bytes);
  } catch (error) {
    if (error instanceof NpyFormatError) fail(error.message);
    throw error;
  }
}

export function parseNpy(bytes: Buffer, geometry: VolumeGeometryHint = {}): StoredResult {
  const h = header(bytes);
  let element: ReturnType<typeof npyElementType>;
  try {
    element = npyElementType(h.descr);
  } catch (error) {
    fail((error as Error).message);
  }
  if (h.shape.length !== 3) fail(`a volume needs 3 dimensions, the header declares shape (${h.shape.join(', ')})`);
  if (h.fortranOrder && !fortranIsCOrder(h.shape)) fail('Fortran-ordered arrays are not supported (save it in C order)');
  const elements = elementCount(h.shape);
  const declared = elements * element.itemSize;
  const held = bytes.length - h.dataOffset;
  if (declared !== held) {
    fail(`the header declares shape (${h.shape.join(', ')}): ${declared} bytes of data, but the file holds ${held}`);
  }
  const Ctor = TYPED_ARRAYS[element.dtype];
  const shared = new SharedArrayBuffer(declared);
  const target = new Uint8Array(shared);
  target.set(bytes.subarray(h.dataOffset));
  if (element.byteOrder === 'big') {
    const size = element.itemSize;
    for (let i = 0; i < declared; i += size) target.subarray(i, i + size).reverse();
  }
  const data = new (Ctor as unknown as new (buffer: SharedArrayBuffer) => Float64Array)(shared);
  if (element.dtype === 'float32' || element.dtype === 'float64') expectFinite(data, 'the data');
  const result = { type: 'volume', shape: h.shape, dtype: element.dtype, data } as StoredResult & { spacing?: number[]; origin?: number[] };
  if (geometry.spacing) result.spacing = geometry.spacing;
  if (geometry.origin) result.origin = geometry.origin;
  return result;
}
