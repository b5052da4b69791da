/**
 * @module request-user
 * Who made a request, as the host stamps it on every write (`by`): the user its token or a
 * trusted login proxy names, else `anonymous`. A client never chooses this name itself; what a
 * body says of its author is not who the host says wrote it.
 */
import type { FastifyRequest } from 'fastify';

/** The name the host gives a request nobody is known to have made. */
export const ANONYMOUS = 'anonymous';

/** How identities reach requests: set once by the host's people service at assembly. */
export type UserResolver = (request: FastifyRequest) => string | null;

let resolver: UserResolver = () => null;

/** Installs how requests are identified (the people service does, at start). */
export function setUserResolver(next: UserResolver): void {
  resolver = next;
}

/** The user who made `request`, or `anonymous`. */
export function requestUser(request: FastifyRequest): string {
  return resolver(request) ?? ANONYMOUS;
}
