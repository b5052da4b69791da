/**
 * @module load-npy-volume
 * A static `.npy` volume read into memory as a stored result, so a delivery can shape and
 * compress it like a computed one. The host has checked the file when it opened it (header,
 * dtype, order, size); this only reads it. Runs on the encode worker thread.
 */
import { open } from 'node:fs/promises';
import { TYPED_ARRAYS, type AnyTypedArray } from '../../envelope/dtypes.ts';
import { elementCount, npyElementType, NpyFormatError, readNpyHeader, swapBytes } from './npy-header.ts';
import type { TaggedResult } from '../../sdk/result-types.ts';

export interface NpySource {
  path: string;
  spacing?: number[];
  origin?: number[];
}

/** The values of a `.npy` file, read straight into shared memory, with its header. */
async function readValues(path: string) {
  const handle = await open(path, 'r');
  try {
    const header = await readNpyHeader(handle);
    const element = npyElementType(header.descr);
    const shared = new SharedArrayBuffer(elementCount(header.shape) * element.itemSize);
    const bytes = new Uint8Array(shared);
    let filled = 0;
    while (filled < bytes.length) {
      const { bytesRead } = await handle.read(bytes, filled, bytes.length - filled, header.dataOffset + filled);
      if (bytesRead === 0) throw new NpyFormatError(`the file ends after ${filled} of ${bytes.length} bytes of values`);
      filled += bytesRead;
    }
    return { header, element, bytes, shared };
  } finally {
    await handle.close();
  }
}

export async function loadNpyVolume(source: NpySource): Promise<TaggedResult> {
  // The file is never held whole beside the values (twice a large volume's size for a moment).
  const { header, element, bytes, shared } = await readValues(source.path);
  // The envelope is little-endian: big-endian files are swapped element by element.
  if (element.byteOrder === 'big') swapBytes(bytes, element.itemSize);
  const Ctor = TYPED_ARRAYS[element.dtype] as unknown as { new (buffer: ArrayBufferLike): AnyTypedArray };
  const volume = { type: 'volume', shape: header.shape, dtype: element.dtype, data: new Ctor(shared) } as TaggedResult;
  if (source.spacing) (volume as { spacing?: number[] }).spacing = source.spacing;
  if (source.origin) (volume as { origin?: number[] }).origin = source.origin;
  return volume;
}
