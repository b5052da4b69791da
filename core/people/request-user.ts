/**
 * @module request-user
 * Who made a request, as the host stamps it on every write (`by`): the user its token or a
 * trusted login proxy names, else `anonymous`. A client never chooses this name itself; what a
 * body says of its author is not who the host says wrote it. The identity is kept beside the
 * request object (set once by the people hook, before any route's own hooks), so it holds in
 * every plugin context, whichever fastify instance a route was registered on.
 */
import type { FastifyRequest } from 'fastify';
import type { Identity } from './users.ts';

/** The name the host gives a request nobody is known to have made. */
export const ANONYMOUS = 'anonymous';

const identities = new WeakMap<object, Identity>();

/** Records who made `request` (the people hook does, as the request arrives). */
export function setRequestIdentity(request: FastifyRequest, identity: Identity): void {
  identities.set(request, identity);
}

/** Who made `request`, or null when nobody is known to have. */
export function requestIdentity(request: FastifyRequest): Identity | null {
  return identities.get(request) ?? null;
}

/** The user who made `request`, or `anonymous`. */
export function requestUser(request: FastifyRequest): string {
  return identities.get(request)?.name ?? ANONYMOUS;
}
