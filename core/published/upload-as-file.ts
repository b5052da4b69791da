/**
 * @module upload-as-file
 * An upload (kept parsed, `POST /api/uploads`) written back as a file, so it can be published
 * as a static specimen: a volume as `.npy`, a mesh as binary `.stl` (which every client loads,
 * the Godot one included), a point cloud as `.ply`, an image as `.png`.
 */
import { formatEncoder } from '../delivery/formats.ts';
import type { StoredResult } from '../results/stored-result.ts';
import type { ResultType } from '../sdk/result-types.ts';

const FILE_FORMAT: Record<ResultType, string> = { volume: 'npy', mesh: 'stl', point_cloud: 'ply', image: 'png' };

/** The file of `result`, named `<baseName>.<ext>`. */
export async function resultAsFile(result: StoredResult, baseName: string): Promise<{ bytes: Buffer; fileName: string }> {
  const encoder = formatEncoder(result.type, FILE_FORMAT[result.type]);
  const parts = await encoder.encode(result, {}, { baseName, envelopeMediaType: 'application/octet-stream' });
  return { bytes: Buffer.concat(parts), fileName: `${baseName}.${encoder.extension}` };
}
