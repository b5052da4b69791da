/**
 * @module static-result
 * The one way a static specimen's data file becomes a result: a `.npy` volume, or any file a
 * parser reads, loaded once per file version and held like a computed result. Every route
 * that delivers a file specimen (its own or a published one) goes through here, so such a
 * file has every format, shaping option, compression and result id a computed result has.
 */
import { stat } from 'node:fs/promises';
import type { SpecimenRecord } from '../catalog/specimen-record.ts';
import { createHostError } from '../errors.ts';
import { FormatError } from '../formats/format-error.ts';
import { parsedExtension } from '../formats/parse-file.ts';
import type { StoredResult } from '../results/stored-result.ts';
import { markRoomOf } from '../results/result-rooms.ts';
import type { DeliveryVariants } from './delivery-variants.ts';
import type { StaticFileSource } from './load-static-file.ts';

/** A file's version: changes when the file is rewritten. Null when it cannot be read. */
export async function fileVersion(path: string): Promise<string | null> {
  const info = await stat(path).catch(() => null);
  return info?.isFile() ? `${info.mtimeMs}:${info.size}` : null;
}

/** What to load for `record`, or null when its data is no file a parser reads (or not local). */
export function staticFileSource(record: SpecimenRecord): StaticFileSource | null {
  const data = record.data;
  if (!data || data.kind === 'remote') return null;
  if (data.kind === 'npy') {
    const npy = { spacing: data.spacing, origin: data.origin, labels: data.labels, ...(data.described ? { described: data.described } : {}) };
    return { path: data.path, fileName: data.fileName, npy };
  }
  return parsedExtension(data.fileName) ? { path: data.path, fileName: data.fileName } : null;
}

/**
 * The data file of `record` as a result, or null when the file is gone (the caller answers
 * as for any missing file). @throws SPC_ERR_SPECIMEN_FILE_INVALID when it does not parse.
 */
export async function staticResult(variants: DeliveryVariants, record: SpecimenRecord, source: StaticFileSource): Promise<StoredResult | null> {
  const version = await fileVersion(source.path);
  if (version === null) return null;
  try {
    const result = await variants.staticFile(source, version);
    // An array published for a room is that room's wherever its result id goes.
    markRoomOf(result, record.room);
    return result;
  } catch (error) {
    if (error instanceof FormatError) throw createHostError('SPC_ERR_SPECIMEN_FILE_INVALID', record.id, error.message);
    throw error;
  }
}
