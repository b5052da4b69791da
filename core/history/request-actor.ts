/**
 * @module request-actor
 * Who a change was made by, wherever in the host it is made: each request's handling runs with
 * the request in an async context, so a store deep below the route (or a layer computed in the
 * background for it) names the request's user (people/request-user.ts) without every call
 * between passing it down. What no request caused is the host's own doing.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { requestUser } from '../people/request-user.ts';

/** `by` for what the host did of itself. */
export const HOST_ACTOR = 'host';

const current = new AsyncLocalStorage<FastifyRequest | string>();

/** Runs each of `app`'s requests in a context naming it. */
export function installRequestActor(app: FastifyInstance): void {
  app.addHook('onRequest', (request, _reply, done) => current.run(request, done));
}

/** Runs `work` as `actor` (e.g. a replay writing another room's changes). */
export function asActor<T>(actor: string, work: () => T): T {
  return current.run(actor, work);
}

/** Who the change being made now is by: the request's user, the actor set, or `host`. */
export function currentActor(): string {
  const made = current.getStore();
  if (made === undefined) return HOST_ACTOR;
  return typeof made === 'string' ? made : requestUser(made);
}
