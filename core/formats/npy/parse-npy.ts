/**
 * @module parse-npy
 * A NumPy `.npy` file as a volume: a 3-D array of a simple dtype, in C order (or a Fortran
 * order that has the same bytes), or a 4-D or 5-D one with time or channels (its `axes` given
 * beside the file; a 5-D array is `tczyx` unless they say otherwise). The header's shape is
 * checked against the bytes that follow before anything is allocated, so a header declaring
 * 2^40 elements costs nothing. What is said of the volume beside the file (geometry, unit,
 * axes, channels, time) is put on the result as given: checking it against the shape is the
 * result check's (results/volume-axes.ts).
 */
import { TYPED_ARRAYS, type DType } from '../../envelope/dtypes.ts';
import { elementCount, fortranIsCOrder, npyElementType, npyOrFail, parseNpyHeader, swapBytes } from './npy-header.ts';
import type { TaggedResult, VolumeOf } from '../../sdk/result-types.ts';
import { expectFinite, fail } from '../format-error.ts';

/** What is said of a volume beside its file, as given. */
export type VolumeGeometryHint = {
  spacing?: number[] | null;
  origin?: number[] | null;
} & Partial<Pick<VolumeOf<'uint8'>, 'unit' | 'time_step' | 'time_unit' | 'vector'>> & { axes?: string; channels?: unknown[] };

/** The fields of a hint that describe time, channels and units. */
const DESCRIBED = ['unit', 'axes', 'channels', 'time_step', 'time_unit', 'vector'] as const;

type Samples = InstanceType<(typeof TYPED_ARRAYS)[DType]>;

/**
 * The samples in shared memory. A body read into shared memory (an upload) is viewed where it
 * lies when the samples start on a multiple of their size, as NumPy's padded headers make
 * them, and need no swapping: no copy. Anything else (a file read from disk, big-endian
 * samples, which are swapped and must not be swapped in the caller's bytes: those are the
 * file a publisher keeps) is copied once.
 */
function samplesOf(bytes: Buffer, offset: number, elements: number, dtype: DType, itemSize: number, swapped: boolean): Samples {
  const Ctor = TYPED_ARRAYS[dtype] as unknown as new (buffer: ArrayBufferLike, byteOffset?: number, length?: number) => Samples;
  const start = bytes.byteOffset + offset;
  if (!swapped && bytes.buffer instanceof SharedArrayBuffer && start % itemSize === 0) return new Ctor(bytes.buffer, start, elements);
  const shared = new SharedArrayBuffer(elements * itemSize);
  new Uint8Array(shared).set(bytes.subarray(offset, offset + elements * itemSize));
  return new Ctor(shared);
}

export function parseNpy(bytes: Buffer, geometry: VolumeGeometryHint = {}): TaggedResult {
  const h = npyOrFail(() => parseNpyHeader(bytes));
  const element = npyOrFail(() => npyElementType(h.descr));
  if (h.shape.length < 3 || h.shape.length > 5) {
    fail(`a volume needs 3 dimensions (4 or 5 with time or channels, given as axes), the header declares shape (${h.shape.join(', ')})`);
  }
  if (h.fortranOrder && !fortranIsCOrder(h.shape)) fail('Fortran-ordered arrays are not supported (save it in C order)');
  const elements = elementCount(h.shape);
  const declared = elements * element.itemSize;
  const held = bytes.length - h.dataOffset;
  if (declared !== held) {
    fail(`the header declares shape (${h.shape.join(', ')}): ${declared} bytes of data, but the file holds ${held}`);
  }
  const data = samplesOf(bytes, h.dataOffset, elements, element.dtype, element.itemSize, element.byteOrder === 'big');
  if (element.byteOrder === 'big') swapBytes(new Uint8Array(data.buffer, data.byteOffset, declared), element.itemSize);
  if (element.dtype === 'float32' || element.dtype === 'float64') expectFinite(data, 'the data');
  const result = { type: 'volume', shape: h.shape, dtype: element.dtype, data } as TaggedResult & { spacing?: number[]; origin?: number[] };
  if (geometry.spacing) result.spacing = geometry.spacing;
  if (geometry.origin) result.origin = geometry.origin;
  for (const name of DESCRIBED) if (geometry[name] !== undefined) (result as Record<string, unknown>)[name] = geometry[name];
  return result;
}
