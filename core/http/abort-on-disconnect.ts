/**
 * @module abort-on-disconnect
 * A signal that aborts when the client goes away before its response is finished, so a
 * computation nobody waits for any more can be cancelled (unless other requests share it).
 */
import type { FastifyReply, FastifyRequest } from 'fastify';

export function abortOnDisconnect(request: FastifyRequest, reply: FastifyReply): AbortSignal {
  const controller = new AbortController();
  const onClose = () => {
    if (!reply.raw.writableFinished) controller.abort();
  };
  reply.raw.once('close', onClose);
  request.raw.once('aborted', () => controller.abort());
  return controller.signal;
}
