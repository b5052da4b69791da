/**
 * @module check-decoded-size
 * Counts a file's decoded size before it is decoded, from its header or by a pass that
 * allocates nothing: pixels × channels × bytes per sample for images (png-header.ts), samples
 * for volumes, vertices and triangles for meshes and point clouds (mesh-decoded-size.ts).
 */
import { elementCount, npyElementType, NpyFormatError, parseNpyHeader } from './npy/npy-header.ts';
import { DecodedSizeError, type DecodedSize } from './decoded-size.ts';
import { fail } from './format-error.ts';
import { glbDecodedSize, objDecodedSize, plyDecodedSize, stlDecodedSize } from './mesh-decoded-size.ts';
import { pngDecodedBytes, readPngHeader } from './png/png-header.ts';

function npyDecodedSize(bytes: Buffer): DecodedSize {
  try {
    const header = parseNpyHeader(bytes);
    const itemSize = npyElementType(header.descr).itemSize;
    const declared = elementCount(header.shape) * itemSize;
    // The samples are the file's own bytes: a header declaring more than follows it is a
    // malformed file, not a large one.
    const held = bytes.length - header.dataOffset;
    if (declared !== held) fail(`the header declares shape (${header.shape.join(', ')}): ${declared} bytes of data, but the file holds ${held}`);
    return { bytes: declared, what: `${elementCount(header.shape)} samples of ${itemSize} bytes` };
  } catch (error) {
    if (error instanceof NpyFormatError) fail(error.message);
    throw error;
  }
}

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
