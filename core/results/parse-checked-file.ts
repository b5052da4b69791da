/**
 * @module parse-checked-file
 * A file read as a result: its format's reader (formats/parse-file.ts) turns the bytes into
 * a typed result, which is then checked like a function's result (normalize-result.ts), so
 * what reaches a plugin as an input, or a viewer as a published specimen, is as sound as a
 * computed result. A result the check refuses is a bad file, so its reason comes back as a
 * FormatError like every other reason a file is refused.
 */
import { FormatError } from '../formats/format-error.ts';
import { parseByExtension } from '../formats/parse-file.ts';
import type { VolumeGeometryHint } from '../formats/npy/parse-npy.ts';
import { normalizeResult, ResultShapeError } from './normalize-result.ts';
import type { StoredResult } from './stored-result.ts';
import { rethrown } from './rethrown.ts';

/**
 * Parses `bytes` by the extension of `fileName` and checks the result.
 * @throws FormatError saying why the bytes are not a sound file of that kind.
 * @throws DecodedSizeError when the file would decode past `maxDecodedBytes`.
 */
export async function parseCheckedFile(bytes: Buffer, fileName: string, geometry: VolumeGeometryHint = {}, maxDecodedBytes = Infinity): Promise<StoredResult> {
  const parsed = await parseByExtension(bytes, fileName, geometry, maxDecodedBytes);
  return rethrown(() => normalizeResult(parsed, parsed.type), ResultShapeError, (error) => new FormatError(error.message));
}
