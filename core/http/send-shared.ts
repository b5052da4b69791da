/**
 * @module send-shared
 * Sends an answer made once for many readers (cache/shared-answer.ts: a room's list, a
 * page of its log): the same bytes for every reader, with their ETag when they have one (an
 * `If-None-Match` that holds gets its 304 from revalidate.ts), compressed once per encoding
 * when the client takes it, so no reader makes a compressed copy of its own.
 */
import type { FastifyReply } from 'fastify';
import type { SharedAnswer } from '../cache/shared-answer.ts';
import { requestEncoding } from './reply-delivery.ts';
import { noneMatch } from './revalidate.ts';

export async function sendShared(reply: FastifyReply, answer: SharedAnswer): Promise<FastifyReply> {
  if (answer.etag !== null) {
    reply.header('etag', answer.etag).header('cache-control', 'no-cache');
    if (noneMatch(reply.request.headers['if-none-match'], answer.etag)) return reply.send(answer.bytes);
  }
  reply.header('vary', 'Accept-Encoding');
  const encoding = requestEncoding(reply);
  const variant = encoding && (await answer.encoded(encoding));
  return variant ? reply.header('content-encoding', encoding).send(variant) : reply.send(answer.bytes);
}
