/**
 * @module request-user
 * Who made a request, as the host stamps it on every write (`by`): the user its token or a
 * trusted login proxy names, else `anonymous`. A client never chooses this name itself; what a
 * body says of its author is not who the host says wrote it.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';

/** The name the host gives a request nobody is known to have made. */
export const ANONYMOUS = 'anonymous';

/** How identities reach requests: set once per app by the host's people service at assembly. */
export type UserResolver = (request: FastifyRequest) => string | null;

// Per app, not per process: tests and embedders run several hosts in one process.
const resolvers = new WeakMap<FastifyInstance, UserResolver>();

/** Installs how `app`'s requests are identified (the people service does, at start). */
export function setUserResolver(app: FastifyInstance, next: UserResolver): void {
  resolvers.set(app, next);
}

/** The user who made `request`, or `anonymous`. */
export function requestUser(request: FastifyRequest): string {
  return resolvers.get(request.server)?.(request) ?? ANONYMOUS;
}
