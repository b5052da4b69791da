/**
 * @module parse-file
 * One entry to the file readers: a file's extension picks its reader (each in its format's
 * folder), once the file's decoded size is known to fit. What comes back is the file as a
 * typed result, not yet checked as a function's result is: results/parse-checked-file.ts adds
 * that check, and everything that takes a file as a result goes through it.
 */
import path from 'node:path';
import type { TaggedResult } from '../sdk/result-types.ts';
import { checkDecodedSize } from './check-decoded-size.ts';
import { FormatError } from './format-error.ts';
import { parseGlb } from './glb/parse-glb.ts';
import { parseNpy, type VolumeGeometryHint } from './npy/parse-npy.ts';
import { parseObj } from './obj/parse-obj.ts';
import { parsePly } from './ply/parse-ply.ts';
import { parsePng } from './png/parse-png.ts';
import { parseStl } from './stl/parse-stl.ts';

const PARSERS: Record<string, (bytes: Buffer, geometry: VolumeGeometryHint) => TaggedResult | Promise<TaggedResult>> = {
  '.npy': parseNpy,
  '.stl': parseStl,
  '.obj': parseObj,
  '.glb': parseGlb,
  '.ply': parsePly,
  '.png': parsePng,
};

/** The extensions a file may have, as listed in errors. */
export const PARSED_EXTENSIONS = Object.keys(PARSERS);

/** The lower-case extension of `fileName` when a reader reads it; else null. */
export function parsedExtension(fileName: string): string | null {
  const ext = path.extname(fileName).toLowerCase();
  return Object.hasOwn(PARSERS, ext) ? ext : null;
}

/**
 * Reads `bytes` by the extension of `fileName`, once its decoded size is known to stay
 * within `maxDecodedBytes` (decoded-size.ts): nothing is decoded from a file past it.
 * @throws FormatError saying why the bytes are not a sound file of that kind.
 * @throws DecodedSizeError when the file would decode past `maxDecodedBytes`.
 */
export async function parseByExtension(bytes: Buffer, fileName: string, geometry: VolumeGeometryHint = {}, maxDecodedBytes = Infinity): Promise<TaggedResult> {
  const ext = parsedExtension(fileName);
  if (!ext) throw new FormatError(`no parser reads '${path.extname(fileName) || fileName}' files`);
  checkDecodedSize(bytes, ext, maxDecodedBytes);
  return await PARSERS[ext]!(bytes, geometry);
}
