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
import { normalizeResult, ResultShapeError } from '../results/normalize-result.ts';
import type { VolumeFieldsInput } from '../results/volume-fields-input.ts';

export interface StaticFileSource {
  path: string;
  /** The name whose extension picks the parser. */
  fileName: string;
  /** `.npy` volumes: the geometry from their sidecar, whether they are a segmentation, and what it says of time and channels. */
  npy?: { spacing?: number[]; origin?: number[]; labels?: LabelFields; described?: VolumeFieldsInput };
}

export type LoadedStaticFile = { result: StoredResult } | { invalid: string };

/**
 * A `.npy` volume with its sidecar's fields: labels on a dtype that cannot hold them make it
 * invalid; with time or channels (said beside it, or five dimensions) it is checked as a
 * function's result is, which works out the ranges its steps are delivered with.
 */
async function loadNpy(path: string, npy: NonNullable<StaticFileSource['npy']>): Promise<LoadedStaticFile> {
  const { described, labels, ...geometry } = npy;
  const volume = await loadNpyVolume({ path, ...geometry });
  if (labels && volume.type === 'volume') Object.assign(volume, checkedLabels(labels, volume.dtype, (why) => new FormatError(why)));
  if (!described && volume.type === 'volume' && volume.shape.length === 3) return { result: volume };
  try {
    return { result: normalizeResult({ ...volume, ...described }, 'volume') };
  } catch (error) {
    if (error instanceof ResultShapeError) return { invalid: error.message };
    throw error;
  }
}

export async function loadStaticFile(source: StaticFileSource): Promise<LoadedStaticFile> {
  try {
    if (source.npy) return await loadNpy(source.path, source.npy);
    return { result: await parseCheckedFile(await readFile(source.path), source.fileName) };
  } catch (error) {
    if (error instanceof FormatError) return { invalid: error.message };
    throw error;
  }
}
