/**
 * @module file-body
 * The one way a file sent as a request body becomes a result, for every door that takes one
 * (`POST /api/uploads`, `PUT /api/specimens/{id}`, a published file a session file carries): parsed off the event loop (the encode
 * thread), its decoded size counted first and refused past the limit before any of it is
 * decoded, and each refusal the catalogued error naming the file. So a hostile file costs the
 * same, and is refused the same, whichever door it comes through.
 */
import { createHostError } from '../errors.ts';
import { DecodedSizeError } from '../formats/decoded-size.ts';
import { FormatError } from '../formats/format-error.ts';
import type { StoredResult } from '../results/stored-result.ts';
import type { ParseFn, ParseOptions } from '../workers/file-parser.ts';

/**
 * Parses `bytes` (a file named `name`) with `parse`, refusing one that would decode past
 * `maxBytes`; `geometry` is what the request says of a volume (spacing, origin, time and
 * channels).
 * @throws SPC_ERR_UPLOAD_DECODES_TOO_LARGE (413) or SPC_ERR_UPLOAD_INVALID (400).
 */
export async function parseFileBody(parse: ParseFn, bytes: Buffer, name: string, maxBytes: number, geometry?: ParseOptions['geometry']): Promise<StoredResult> {
  if (bytes.length === 0) throw createHostError('SPC_ERR_UPLOAD_INVALID', name, 'the file is empty');
  try {
    return await parse(bytes, name, { maxDecodedBytes: maxBytes, ...(geometry ? { geometry } : {}) });
  } catch (error) {
    if (error instanceof DecodedSizeError)
      throw createHostError('SPC_ERR_UPLOAD_DECODES_TOO_LARGE', name, String(error.size.bytes), error.size.what, String(error.limit));
    if (error instanceof FormatError) throw createHostError('SPC_ERR_UPLOAD_INVALID', name, error.message);
    throw error;
  }
}
