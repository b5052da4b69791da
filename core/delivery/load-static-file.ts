/**
 * @module load-static-file
 * A static data file read into memory as a stored result, so a delivery can shape, convert
 * and compress it like a computed one: a `.npy` volume (already checked by the host when it
 * opened it) and every file a parser reads (`.stl`, `.obj`, `.glb`, `.ply`, `.png`). A file
 * that does not parse comes back as the reason, not as a thrown error: errors lose their
 * kind on the way back from the worker thread. Runs on the encode worker thread.
 */
import { readFile } from 'node:fs/promises';
import { FormatError } from '../formats/format-error.ts';
import { parseCheckedFile } from '../results/parse-checked-file.ts';
import type { StoredResult } from '../results/stored-result.ts';
import { loadNpyVolume } from '../formats/npy/load-npy-volume.ts';
import { checkedLabels, type LabelFields } from '../results/label-fields.ts';

export interface StaticFileSource {
  path: string;
  /** The name whose extension picks the parser. */
  fileName: string;
  /** `.npy` volumes: the geometry from their sidecar, and whether they are a segmentation. */
  npy?: { spacing?: number[]; origin?: number[]; labels?: LabelFields };
}

export type LoadedStaticFile = { result: StoredResult } | { invalid: string };

/** A `.npy` volume with its sidecar's fields; labels on a dtype that cannot hold them make it invalid. */
async function npyVolume(path: string, side: NonNullable<StaticFileSource['npy']>): Promise<StoredResult> {
  const { labels, ...geometry } = side;
  const volume = await loadNpyVolume({ path, ...geometry });
  if (!labels || volume.type !== 'volume') return volume;
  return Object.assign(volume, checkedLabels(labels, volume.dtype, (why) => new FormatError(why)));
}

export async function loadStaticFile(source: StaticFileSource): Promise<LoadedStaticFile> {
  try {
    if (source.npy) return { result: await npyVolume(source.path, source.npy) };
    return { result: await parseCheckedFile(await readFile(source.path), source.fileName) };
  } catch (error) {
    if (error instanceof FormatError) return { invalid: error.message };
    throw error;
  }
}
