/**
 * @module read-session-body
 * A session file's bytes from a request body, refused (413) as soon as they pass the limit
 * rather than after, so a client that streams gigabytes is stopped there. When the request
 * says its length, each chunk is copied into its place as it arrives, so no single copy of
 * the whole file holds up the event loop at the end.
 */
import type { Readable } from 'node:stream';
import { createHostError } from '../errors.ts';

/** Reads `stream` whole, at most `maxBytes`; `declared` is its Content-Length when it has one. @throws SPC_ERR_SESSION_TOO_LARGE past it. */
export async function readSessionBody(stream: Readable, maxBytes: number, declared?: number): Promise<Buffer> {
  const known = declared !== undefined && Number.isSafeInteger(declared) && declared >= 0 && declared <= maxBytes;
  // Memory is committed as the bytes come, so a Content-Length that overstates the body costs nothing.
  let target = known ? Buffer.allocUnsafe(declared) : null;
  const chunks: Buffer[] = [];
  let total = 0;
  for await (const chunk of stream as AsyncIterable<Buffer>) {
    const end = total + chunk.length;
    if (end > maxBytes) throw createHostError('SPC_ERR_SESSION_TOO_LARGE', String(maxBytes));
    if (target && end <= target.length) {
      chunk.copy(target, total);
    } else {
      // More bytes than the request said: gathered as they come instead.
      if (target) chunks.push(target.subarray(0, total));
      target = null;
      chunks.push(chunk);
    }
    total = end;
  }
  if (target) return target.subarray(0, total);
  return chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, total);
}
