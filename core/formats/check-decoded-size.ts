/**
 * @module check-decoded-size
 * Counts a file's decoded size before it is decoded, from its header or by a pass that
 * allocates nothing, by the counter in the file's format folder: pixels × channels × bytes per
 * sample for images (png/png-header.ts), samples for volumes (npy/npy-decoded-size.ts),
 * vertices and triangles for meshes and point clouds (stl/, obj/, ply/, glb/).
 */
import { DecodedSizeError, type DecodedSize } from './decoded-size.ts';
import { fail } from './format-error.ts';
import { glbDecodedSize } from './glb/glb-decoded-size.ts';
import { npyDecodedSize } from './npy/npy-decoded-size.ts';
import { objDecodedSize } from './obj/obj-decoded-size.ts';
import { plyDecodedSize } from './ply/ply-decoded-size.ts';
import { pngDecodedBytes, readPngHeader } from './png/png-header.ts';
import { stlDecodedSize } from './stl/stl-decoded-size.ts';

const COUNTERS: Record<string, (bytes: Buffer) => DecodedSize> = {
  '.png': (bytes) => pngDecodedBytes(readPngHeader(bytes)),
  '.npy': npyDecodedSize,
  '.stl': stlDecodedSize,
  '.obj': objDecodedSize,
  '.ply': plyDecodedSize,
  '.glb': glbDecodedSize,
};

/** The decoded size of a file with extension `ext` (lower case, with its dot). */
export function decodedSizeOf(bytes: Buffer, ext: string): DecodedSize {
  const count = COUNTERS[ext];
  if (!count) fail(`no parser reads '${ext}' files`);
  return count(bytes);
}

/**
 * Throws DecodedSizeError when the file would decode past `limit` bytes (FormatError when its
 * header is not sound enough to tell).
 */
export function checkDecodedSize(bytes: Buffer, ext: string, limit: number): DecodedSize {
  const size = decodedSizeOf(bytes, ext);
  if (size.bytes > limit) throw new DecodedSizeError(size, limit);
  return size;
}
