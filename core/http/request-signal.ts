/**
 * @module request-signal
 * An AbortSignal that fires when the client goes away before the response is complete, so a
 * remote fetch made on its behalf stops too.
 */
import type { FastifyReply } from 'fastify';

export function requestSignal(reply: FastifyReply): AbortSignal {
  const controller = new AbortController();
  reply.raw.once('close', () => {
    if (!reply.raw.writableFinished) controller.abort(new Error('client closed the connection'));
  });
  return controller.signal;
}
