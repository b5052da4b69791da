/**
 * @module read-upload-body
 * Reads an upload's body from the request stream, refusing it (413) as soon as it passes the
 * limit rather than after: a client that streams gigabytes is stopped at the limit.
 */
import type { Readable } from 'node:stream';
import { createHostError } from '../errors.ts';

export async function readUploadBody(stream: Readable, maxBytes: number): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let total = 0;
  for await (const chunk of stream) {
    total += (chunk as Buffer).length;
    if (total > maxBytes) throw createHostError('SPC_ERR_UPLOAD_TOO_LARGE', String(maxBytes));
    chunks.push(chunk as Buffer);
  }
  return chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, total);
}
