/**
 * @module read-upload-body
 * Reads an upload's body from the request stream, refusing it (413) as soon as it passes the
 * limit rather than after: a client that streams gigabytes is stopped at the limit. The
 * content id is hashed chunk by chunk as the bytes arrive, so it costs no pass of its own.
 *
 * The bytes land in shared memory, each chunk copied once straight into its place when the
 * request says its length: a parser can then hand out views of the body (an `.npy` volume's
 * samples) that cross into worker threads by reference, with no second copy. Memory is only
 * committed as the bytes arrive, so a Content-Length that overstates the body costs nothing.
 */
import type { Readable } from 'node:stream';
import { createHostError } from '../errors.ts';
import { createUploadHash } from './upload-store.ts';

export interface UploadBody {
  /** The body, in a SharedArrayBuffer of its own. */
  bytes: Buffer;
  id: string;
}

function sharedBytes(length: number): Buffer {
  return Buffer.from(new SharedArrayBuffer(length), 0, length);
}

/**
 * Reads `stream` whole. `declaredBytes` is the request's Content-Length when it has one (the
 * caller refused it already when past `maxBytes`); chunks arriving past it are refused too.
 * `described`: what the request says of the file beside its bytes (a volume's axes), part of its id.
 */
export async function readUploadBody(stream: Readable, maxBytes: number, extension: string, declaredBytes?: number, described = ''): Promise<UploadBody> {
  const hash = createUploadHash(extension, described);
  const known = declaredBytes !== undefined && Number.isSafeInteger(declaredBytes) && declaredBytes >= 0 && declaredBytes <= maxBytes;
  let target = known ? sharedBytes(declaredBytes) : null;
  const chunks: Buffer[] = [];
  let total = 0;
  // Not destroyed when refused: the host reads and drops the rest, so the client reads the refusal.
  const arriving = typeof stream.iterator === 'function' ? stream.iterator({ destroyOnReturn: false }) : (stream as AsyncIterable<Buffer>);
  for await (const chunk of arriving as AsyncIterable<Buffer>) {
    const end = total + chunk.length;
    if (end > maxBytes) throw createHostError('SPC_ERR_UPLOAD_TOO_LARGE', String(maxBytes));
    hash.update(chunk);
    if (target && end <= target.length) {
      target.set(chunk, total);
    } else {
      // More bytes than the request said: gather them as they come instead.
      if (target) chunks.push(target.subarray(0, total));
      target = null;
      chunks.push(chunk);
    }
    total = end;
  }
  const id = hash.digest('hex').slice(0, 32);
  if (target) return { bytes: total === target.length ? target : target.subarray(0, total), id };
  // No length given (a chunked body): one copy into shared memory.
  const bytes = sharedBytes(total);
  let at = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, at);
    at += chunk.length;
  }
  return { bytes, id };
}
