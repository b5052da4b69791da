/**
 * @module read-upload-body
 * Reads an upload's body from the request stream, refusing it (413) as soon as it passes the
 * limit rather than after: a client that streams gigabytes is stopped at the limit. The
 * content id is hashed chunk by chunk as the bytes arrive, so it costs no pass of its own.
 */
import type { Readable } from 'node:stream';
import { createHostError } from '../errors.ts';
import { createUploadHash } from './upload-store.ts';

export async function readUploadBody(stream: Readable, maxBytes: number, extension: string): Promise<{ bytes: Buffer; id: string }> {
  const chunks: Buffer[] = [];
  const hash = createUploadHash(extension);
  let total = 0;
  for await (const chunk of stream) {
    total += (chunk as Buffer).length;
    if (total > maxBytes) throw createHostError('SPC_ERR_UPLOAD_TOO_LARGE', String(maxBytes));
    hash.update(chunk as Buffer);
    chunks.push(chunk as Buffer);
  }
  return { bytes: chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, total), id: hash.digest('hex').slice(0, 32) };
}
