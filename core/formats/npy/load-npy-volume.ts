/**
 * @module load-npy-volume
 * A static `.npy` volume read into memory as a stored result, so a delivery can shape and
 * compress it like a computed one. The host has checked the file when it opened it (header,
 * dtype, order, size); this only reads it. Runs on the encode worker thread.
 */
import { readFile } from 'node:fs/promises';
import { TYPED_ARRAYS, type AnyTypedArray } from '../../envelope/dtypes.ts';
import { elementCount, npyElementType, parseNpyHeader } from './npy-header.ts';
import type { TaggedResult } from '../../sdk/result-types.ts';

export interface NpySource {
  path: string;
  spacing?: number[];
  origin?: number[];
}

export async function loadNpyVolume(source: NpySource): Promise<TaggedResult> {
  const file = await readFile(source.path);
  const header = parseNpyHeader(file);
  const element = npyElementType(header.descr);
  const count = elementCount(header.shape);
  const shared = new SharedArrayBuffer(count * element.itemSize);
  const bytes = new Uint8Array(shared);
  bytes.set(file.subarray(header.dataOffset, header.dataOffset + count * element.itemSize));
  // The envelope is little-endian: big-endian files are swapped element by element.
  if (element.byteOrder === 'big') {
    const size = element.itemSize;
    for (let i = 0; i < bytes.length; i += size) bytes.subarray(i, i + size).reverse();
  }
  const Ctor = TYPED_ARRAYS[element.dtype] as unknown as { new (buffer: ArrayBufferLike): AnyTypedArray };
  const volume = { type: 'volume', shape: header.shape, dtype: element.dtype, data: new Ctor(shared) } as TaggedResult;
  if (source.spacing) (volume as { spacing?: number[] }).spacing = source.spacing;
  if (source.origin) (volume as { origin?: number[] }).origin = source.origin;
  return volume;
}
