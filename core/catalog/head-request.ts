/**
 * @module head-request
 * HEAD support for streamed bodies. Fastify answers HEAD with the GET handler and drains any
 * stream it is given, which would read a whole data file just to discard it. For HEAD the
 * senders close their file and hand over an empty stream instead; Fastify then keeps the
 * `Content-Length` they set.
 */
import type { FileHandle } from 'node:fs/promises';
import { Readable } from 'node:stream';
import type { FastifyReply } from 'fastify';

export function isHeadRequest(reply: FastifyReply): boolean {
  return reply.request.method === 'HEAD';
}

/** Closes `handle` and answers with no body (headers already set). */
export async function sendHeadOnly(reply: FastifyReply, handle: FileHandle): Promise<FastifyReply> {
  await handle.close().catch(() => {});
  return reply.send(Readable.from([]));
}
