/**
 * @module read-session-body
 * A session file's bytes from a request body, refused (413) as soon as they pass the limit
 * rather than after, so a client that streams gigabytes is stopped there.
 */
import type { Readable } from 'node:stream';
import { createHostError } from '../errors.ts';

/** Reads `stream` whole, at most `maxBytes`. @throws SPC_ERR_SESSION_TOO_LARGE past it. */
export async function readSessionBody(stream: Readable, maxBytes: number): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let total = 0;
  for await (const chunk of stream as AsyncIterable<Buffer>) {
    total += chunk.length;
    if (total > maxBytes) throw createHostError('SPC_ERR_SESSION_TOO_LARGE', String(maxBytes));
    chunks.push(chunk);
  }
  return chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, total);
}
