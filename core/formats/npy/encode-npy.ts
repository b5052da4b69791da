/**
 * @module encode-npy
 * A volume result as a NumPy `.npy` file (format 1.0): the magic, a header dictionary padded
 * so the data starts on a 64-byte boundary, then the samples in C order, little-endian.
 * `numpy.load` reads it back with its shape and dtype; spacing and origin have no place in
 * the format (the OME-Zarr store carries them).
 */
import { NUMPY_TYPESTR, type DType } from '../../envelope/dtypes.ts';
import type { VolumeResult } from '../../sdk/result-types.ts';

/** The header dictionary, e.g. `{'descr': '<f4', 'fortran_order': False, 'shape': (2, 3, 4), }`. */
function headerDict(dtype: DType, shape: readonly number[]): string {
  const dims = shape.length === 1 ? `(${shape[0]},)` : `(${shape.join(', ')})`;
  return `{'descr': '${NUMPY_TYPESTR[dtype]}', 'fortran_order': False, 'shape': ${dims}, }`;
}

/** The `.npy` bytes of `volume` (this host is little-endian, as the typed arrays are). */
export function encodeNpy(volume: VolumeResult): Uint8Array {
  const dict = headerDict(volume.dtype, volume.shape);
  // magic (6) + version (2) + header length (2) + dict + padding + '\n', a multiple of 64.
  const total = Math.ceil((10 + dict.length + 1) / 64) * 64;
  const header = `${dict}${' '.repeat(total - 10 - dict.length - 1)}\n`;
  const data = volume.data;
  const out = new Uint8Array(total + data.byteLength);
  out.set([0x93, 0x4e, 0x55, 0x4d, 0x50, 0x59, 1, 0]);
  new DataView(out.buffer).setUint16(8, header.length, true);
  out.set(new TextEncoder().encode(header), 10);
  out.set(new Uint8Array(data.buffer, data.byteOffset, data.byteLength), total);
  return out;
}
