/**
 * @module file-layers
 * A static specimen whose file no parser reads (a `.xyz` point cloud) as a layer: the host
 * holds no result of it, only the file, which `/data` sends as it is and the viewer draws
 * itself. Such a layer's result is its type and the specimen's data URL, with no result id
 * and no blob (there are no bytes of a result to name); a snapshot refers to the file where it
 * lies, as the room does. A file whose type no layer shows, or one that is not local (a relayed
 * worker's is only known once fetched, so it goes the parsed way), is not such a layer.
 */
import type { SpecimenRecord } from '../../catalog/specimen-record.ts';
import type { LayerResult } from '../../wire/scene-types.ts';
import type { ResultType } from '../../wire/wire-types.ts';
import { fileVersion } from '../../delivery/static-result.ts';
import { createHostError } from '../../errors.ts';
import { unreadableStatic } from '../../inputs/static-inputs.ts';
import { bad } from '../check-display.ts';
import { specimenDataUrl } from '../scene-size.ts';

const SHOWN_TYPES: readonly string[] = ['mesh', 'volume', 'point_cloud', 'image'] satisfies ResultType[];

/**
 * Whether `record` (of `type`) is a local file no parser reads; false when a parser reads it
 * (or it is relayed). `at`: the source's path in errors.
 * @throws SPC_ERR_SCENE_INVALID when it has no file, or its type is none a layer shows.
 */
export function isAsIsFile(record: SpecimenRecord, type: string, at: string): boolean {
  const why = unreadableStatic(record);
  if (why === null) return false;
  if (record.data?.kind !== 'file') throw bad(`${at}.specimen`, `'${record.id}' ${why}: it cannot be a layer`);
  if (!SHOWN_TYPES.includes(type))
    throw bad(`${at}.specimen`, `'${record.id}' is a '${record.data.fileName}' file of type '${type}', which no layer shows (${SHOWN_TYPES.join(', ')})`);
  return true;
}

/**
 * The result of a file layer: its type and where `/data` sends the file.
 * @throws SPC_ERR_SPECIMEN_FILE_MISSING when the file is gone.
 */
export async function asIsFileResult(record: SpecimenRecord, type: string): Promise<LayerResult> {
  const data = record.data;
  if (data?.kind !== 'file') throw createHostError('SPC_ERR_SPECIMEN_NO_DATA', record.id);
  if ((await fileVersion(data.path)) === null) throw createHostError('SPC_ERR_SPECIMEN_FILE_MISSING', record.id, data.fileName);
  return { type: type as ResultType, data_url: specimenDataUrl(record.id) };
}
