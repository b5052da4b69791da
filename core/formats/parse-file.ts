/**
 * @module parse-file
 * One entry to the file parsers: a file's extension picks its parser, and the parsed result
 * is checked like a function's result (results/normalize-result.ts), so what reaches a
 * plugin as an input is as sound as a computed result.
 */
import path from 'node:path';
import { normalizeResult, ResultShapeError } from '../results/normalize-result.ts';
import type { StoredResult } from '../results/stored-result.ts';
import { checkDecodedSize } from './check-decoded-size.ts';
import { FormatError } from './format-error.ts';
import { parseGlb } from './parse-glb.ts';
import { parseNpy, type VolumeGeometryHint } from './parse-npy.ts';
import { parseObj } from './parse-obj.ts';
import { parsePly } from './parse-ply.ts';
import { parsePng } from './parse-png.ts';
import { parseStl } from './parse-stl.ts';

const PARSERS: Record<string, (bytes: Buffer, geometry: VolumeGeometryHint) => StoredResult | Promise<StoredResult>> = {
  '.npy': parseNpy,
  '.stl': parseStl,
  '.obj': parseObj,
  '.glb': parseGlb,
  '.ply': parsePly,
  '.png': parsePng,
};

/** The extensions a file may have, as listed in errors. */
export const PARSED_EXTENSIONS = Object.keys(PARSERS);

/** The lower-case extension of `fileName` when a parser reads it; else null. */
export function parsedExtension(fileName: string): string | null {
  const ext = path.extname(fileName).toLowerCase();
  return Object.hasOwn(PARSERS, ext) ? ext : null;
}

/**
 * Parses `bytes` by the extension of `fileName`, once its decoded size is known to stay
 * within `maxDecodedBytes` (decoded-size.ts): nothing is decoded from a file past it.
 * @throws FormatError saying why the bytes are not a sound file of that kind.
 * @throws DecodedSizeError when the file would decode past `maxDecodedBytes`.
 */
export async function parseFile(bytes: Buffer, fileName: string, geometry: VolumeGeometryHint = {}, maxDecodedBytes = Infinity): Promise<StoredResult> {
  const ext = parsedExtension(fileName);
  if (!ext) throw new FormatError(`no parser reads '${path.extname(fileName) || fileName}' files`);
  checkDecodedSize(bytes, ext, maxDecodedBytes);
  const parsed = await PARSERS[ext]!(bytes, geometry);
  try {
    return normalizeResult(parsed, parsed.type);
  } catch (error) {
    if (error instanceof ResultShapeError) throw new FormatError(error.message);
    throw error;
  }
}
