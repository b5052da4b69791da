/**
 * @module abort-on-disconnect
 * The one way a route learns that its client went away before the response was finished: a
 * signal that then aborts, so work nobody waits for any more stops (a computation, unless
 * other requests share it; a remote fetch made on the client's behalf). `DisconnectSignal`
 * makes it only when first read: a cache hit or a local file never reads it, so it costs no
 * AbortController and no listeners; one read after the client left is aborted already.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';

/** Why a disconnect signal aborted. */
export const CLIENT_GONE = 'the client closed the connection';

/** A signal that aborts if the client goes away before `reply` is finished (at once if it has). */
export function abortOnDisconnect(request: FastifyRequest, reply: FastifyReply): AbortSignal {
  const controller = new AbortController();
  const abort = () => controller.abort(new Error(CLIENT_GONE));
  if (request.raw.aborted || (reply.raw.destroyed && !reply.raw.writableFinished)) {
    abort();
    return controller.signal;
  }
  reply.raw.once('close', () => {
    if (!reply.raw.writableFinished) abort();
  });
  request.raw.once('aborted', abort);
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
