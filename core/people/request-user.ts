/**
 * @module request-user
 * Who made a request, as the host stamps it on every write (`by`): the user its token or a
 * trusted login proxy names, else `anonymous`. A client never chooses this name itself; what a
 * body says of its author is not who the host says wrote it. The identity is kept on the request
 * object itself (set once by the people hook, before any route's own hooks), so it holds in
 * every plugin context, whichever fastify instance a route was registered on; the root instance
 * declares the slot, so every request is made with it and keeps one shape.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Identity } from './users.ts';

/** The name the host gives a request nobody is known to have made. */
export const ANONYMOUS = 'anonymous';

const IDENTITY = Symbol('vitrine.identity');

type Carrying = { [IDENTITY]?: Identity | null };

/** Gives every request of `app` (and of every instance it registers) an empty slot for who made it. */
export function declareRequestIdentity(app: FastifyInstance): void {
  app.decorateRequest(IDENTITY as unknown as string, null);
}

/** Records who made `request` (the people hook does, as the request arrives). */
export function setRequestIdentity(request: FastifyRequest, identity: Identity): void {
  (request as Carrying)[IDENTITY] = identity;
}

/** Who made `request`, or null when nobody is known to have. */
export function requestIdentity(request: FastifyRequest): Identity | null {
  return (request as Carrying)[IDENTITY] ?? null;
}

/** The user who made `request`, or `anonymous`. */
export function requestUser(request: FastifyRequest): string {
  return (request as Carrying)[IDENTITY]?.name ?? ANONYMOUS;
}
