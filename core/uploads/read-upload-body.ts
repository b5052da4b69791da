/**
 * @module read-upload-body
 * Reads an upload's body from the request stream into shared memory (memory/shared-body.ts: refused
 * with 413 as soon as it passes the limit, each chunk copied once into its place). The content
 * id is hashed chunk by chunk as the bytes arrive, so it costs no pass of its own; a parser can
 * then hand out views of the body (an `.npy` volume's samples) that cross into worker threads
 * by reference, with no second copy.
 */
import type { Readable } from 'node:stream';
import { createHostError } from '../errors.ts';
import { readSharedBody } from '../memory/shared-body.ts';
import { createUploadHash } from './upload-store.ts';

export interface UploadBody {
  /** The body, in a SharedArrayBuffer of its own. */
  bytes: Buffer;
  id: string;
}

/**
 * Reads `stream` whole. `declaredBytes` is the request's Content-Length when it has one (the
 * caller refused it already when past `maxBytes`).
 * `described`: what the request says of the file beside its bytes (a volume's axes), part of its id.
 */
export async function readUploadBody(stream: Readable, maxBytes: number, extension: string, declaredBytes?: number, described = ''): Promise<UploadBody> {
  const hash = createUploadHash(extension, described);
  const tooLarge = () => createHostError('SPC_ERR_UPLOAD_TOO_LARGE', String(maxBytes));
  const bytes = await readSharedBody(stream, { maxBytes, declaredBytes, tooLarge, seen: (chunk) => hash.update(chunk) });
  return { bytes, id: hash.digest('hex').slice(0, 32) };
}
