/**
 * @module reply-envelope
 * Sends an envelope: the preamble, then the typed arrays' own bytes. Nothing is concatenated
 * into a new buffer, and Content-Length is known up front (clients show a progress bar from it).
 */
import type { OutgoingHttpHeaders } from 'node:http';
import type { FastifyReply } from 'fastify';
import { encodeMeshEnvelope, type EnvelopeParts } from '../envelope/encode-envelope.ts';
import type { ArrivingResult } from '../results/payload-fill.ts';
import { memoByIdentity } from '../params/memo.ts';
import type { StoredResult } from '../results/stored-result.ts';
import { encodeStoredVolume } from '../results/volume-envelope.ts';

/**
 * The envelope parts of a mesh or volume result; null for other kinds. Made once per result
 * (params/memo.ts: a held result is not written to): every hit of a room entry sends the same
 * parts (a preamble and views, a few hundred bytes), and nothing in them is written to.
 */
export const toEnvelope = memoByIdentity((result: StoredResult): EnvelopeParts | null => {
  if (result.type === 'mesh') return encodeMeshEnvelope(result);
  return result.type === 'volume' ? encodeStoredVolume(result) : null;
});

/**
 * Writes the head (`own`: every header but the length, none undefined), then the preamble and
 * the blocks straight to the socket in one corked batch: the blocks
 * are views onto memory the cache already holds, so queueing them costs nothing and the
 * kernel drains them as fast as the client reads (one writev for small envelopes).
 */
export function sendEnvelope(reply: FastifyReply, envelope: EnvelopeParts, own: OutgoingHttpHeaders): FastifyReply {
  reply.hijack();
  const res = reply.raw;
  // Headers set so far (CORS, the result's id) go out too, with the envelope's `own` (its media
  // type, blob id, ETag...) over them: writeHead bypasses the reply's own headers.
  // getHeaders() makes a new object each call, so it is completed in place.
  const head = Object.assign(reply.getHeaders() as OutgoingHttpHeaders, own);
  head['content-length'] = envelope.byteLength;
  res.writeHead(200, head);
  res.cork();
  for (const part of envelope.parts) res.write(part);
  res.end();
  res.uncork();
  return reply;
}

/**
 * Sends an envelope whose blocks are still arriving (a relayed result crossing from its
 * worker): the head and preamble at once, then each block's bytes as soon as they are in.
 * The blocks are views onto the memory the room cache keeps, so nothing is copied. Once the
 * head is out a failure can only cut the response short: the socket is destroyed, and the
 * client sees fewer bytes than Content-Length announced.
 */
export function sendEnvelopeAsItArrives(reply: FastifyReply, envelope: EnvelopeParts, mediaType: string, arriving: ArrivingResult): FastifyReply {
  reply.hijack();
  const res = reply.raw;
  // Headers set by hooks so far (CORS) go out too: writeHead bypasses the reply's own.
  res.writeHead(200, { ...(reply.getHeaders() as OutgoingHttpHeaders), 'content-type': mediaType, 'content-length': envelope.byteLength });
  void (async () => {
    for (const part of envelope.parts) {
      let sent = 0;
      while (sent < part.byteLength) {
        const have = await arriving.arrived(part, sent + 1);
        if (res.destroyed) return;
        res.write(part.subarray(sent, have));
        sent = have;
      }
    }
    res.end();
  })().catch((error: unknown) => {
    // A client that left is not news; a transfer that broke under a client still reading is.
    if (!res.destroyed) reply.log.warn(`envelope cut short: ${(error as Error).message}`);
    res.destroy();
  });
  return reply;
}
