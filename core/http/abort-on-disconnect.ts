/**
 * @module abort-on-disconnect
 * A signal that aborts when the client goes away before its response is finished, so a
 * computation nobody waits for any more can be cancelled (unless other requests share it).
 * `DisconnectSignal` makes it only when first read: a cache hit never reads it, so it costs no
 * AbortController and no listeners; one read after the client left is aborted already.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';

export function abortOnDisconnect(request: FastifyRequest, reply: FastifyReply): AbortSignal {
  const controller = new AbortController();
  if (request.raw.aborted || (reply.raw.destroyed && !reply.raw.writableFinished)) {
    controller.abort();
    return controller.signal;
  }
  const onClose = () => {
    if (!reply.raw.writableFinished) controller.abort();
  };
  reply.raw.once('close', onClose);
  request.raw.once('aborted', () => controller.abort());
  return controller.signal;
}

/** A request's disconnect signal, made the first time `signal` is read. */
export class DisconnectSignal {
  readonly #request: FastifyRequest;
  readonly #reply: FastifyReply;
  #signal: AbortSignal | null = null;

  constructor(request: FastifyRequest, reply: FastifyReply) {
    this.#request = request;
    this.#reply = reply;
  }

  get signal(): AbortSignal {
    return (this.#signal ??= abortOnDisconnect(this.#request, this.#reply));
  }
}
