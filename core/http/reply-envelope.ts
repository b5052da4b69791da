/**
 * @module reply-envelope
 * Sends an envelope: the preamble, then the typed arrays' own bytes. Nothing is concatenated
 * into a new buffer, and Content-Length is known up front (clients show a progress bar from it).
 */
import type { FastifyReply } from 'fastify';
import { encodeMeshEnvelope, encodeVolumeEnvelope, type EnvelopeParts } from '../envelope/encode-envelope.ts';
import type { StoredResult } from '../workers/protocol.ts';

/** The envelope parts of a mesh or volume result; null for other kinds. */
export function toEnvelope(result: StoredResult): EnvelopeParts | null {
  if (result.type === 'mesh') return encodeMeshEnvelope(result);
  if (result.type === 'volume') return encodeVolumeEnvelope(result, result.valueRange);
  return null;
}

/**
 * Writes the preamble and the blocks straight to the socket in one corked batch: the blocks
 * are views onto memory the cache already holds, so queueing them costs nothing and the
 * kernel drains them as fast as the client reads (one writev for small envelopes).
 */
export function sendEnvelope(reply: FastifyReply, envelope: EnvelopeParts, mediaType: string): FastifyReply {
  reply.hijack();
  const res = reply.raw;
  res.writeHead(200, { 'content-type': mediaType, 'content-length': envelope.byteLength });
  res.cork();
  for (const part of envelope.parts) res.write(part);
  res.end();
  res.uncork();
  return reply;
}
