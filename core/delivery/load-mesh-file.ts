/**
 * @module load-mesh-file
 * A static GLB or PLY file read into memory as a checked result, so a delivery can convert it
 * (a headset's STL). Only these two parsers are imported: this runs on the encode worker
 * thread, whose bundle cannot load the CommonJS PNG reader the other file parsers pull in.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { FormatError } from '../formats/format-error.ts';
import { parseGlb } from '../formats/parse-glb.ts';
import { parsePly } from '../formats/parse-ply.ts';
import { normalizeResult } from '../results/normalize-result.ts';
import type { StoredResult } from '../results/stored-result.ts';

export async function loadMeshFile(filePath: string): Promise<StoredResult> {
  const ext = path.extname(filePath).toLowerCase();
  const bytes = await readFile(filePath);
  const parsed = ext === '.glb' ? await parseGlb(bytes) : ext === '.ply' ? parsePly(bytes) : null;
  if (!parsed) throw new FormatError(`no mesh reader for '${ext}' files`);
  return normalizeResult(parsed, parsed.type);
}
