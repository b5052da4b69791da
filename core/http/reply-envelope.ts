/**
 * @module reply-envelope
 * Sends an envelope: the preamble, then the typed arrays' own bytes, as views in bounded
 * chunks. Nothing is concatenated into a new buffer; the socket's backpressure paces the
 * stream, and Content-Length is known up front (clients show a progress bar from it).
 */
import { Readable } from 'node:stream';
import type { FastifyReply } from 'fastify';
import { encodeMeshEnvelope, encodeVolumeEnvelope, type EnvelopeParts } from '../envelope/encode-envelope.ts';
import type { StoredResult } from '../workers/protocol.ts';

const CHUNK = 4 * 1024 * 1024;

function* chunks(parts: Buffer[]): Generator<Buffer> {
  for (const part of parts) {
    for (let offset = 0; offset < part.length; offset += CHUNK) yield part.subarray(offset, Math.min(part.length, offset + CHUNK));
  }
}

/** The envelope parts of a mesh or volume result; null for other kinds. */
export function toEnvelope(result: StoredResult): EnvelopeParts | null {
  if (result.type === 'mesh') return encodeMeshEnvelope(result);
  if (result.type === 'volume') return encodeVolumeEnvelope(result, result.valueRange);
  return null;
}

export function sendEnvelope(reply: FastifyReply, envelope: EnvelopeParts, mediaType: string): FastifyReply {
  reply.header('content-type', mediaType);
  reply.header('content-length', envelope.byteLength);
  return reply.send(Readable.from(chunks(envelope.parts), { objectMode: false, highWaterMark: CHUNK }));
}
