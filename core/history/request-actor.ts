/**
 * @module request-actor
 * Who a change was made by, wherever in the host it is made: each request runs as its user
 * (events/acting-user.ts, set by the people hook as the request arrives), so a store deep below
 * the route, or a layer computed in the background for it, names the request's user without
 * every call between passing it down. What no request caused is the host's own doing. One async
 * context serves both the room events' `by` and the log's: a second one would cost every
 * promise of every request its propagation again.
 */
import { actingUser, runAs } from '../events/acting-user.ts';

/** `by` for what the host did of itself. */
export const HOST_ACTOR = 'host';

/** Runs `work` as `actor` (e.g. a replay writing another room's changes). */
export const asActor: <T>(actor: string, work: () => T) => T = runAs;

/** Who the change being made now is by: the request's user, the actor set, or `host`. */
export function currentActor(): string {
  return actingUser() ?? HOST_ACTOR;
}
