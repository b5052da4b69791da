/**
 * @module acting-person
 * A person as the work done for them acts: their name for what they change (`by`), and the
 * check of what each room lets them do, for what their work names deep below where it came in
 * (a room's published specimen as a tool's argument, a layer's source, an input). An HTTP
 * request and an agent's turn act for their person the same way, so a tool the agent calls for
 * someone sees exactly what that person's own request would.
 */
import type { Acting } from '../events/acting-user.ts';
import type { People } from './people.ts';
import { ANONYMOUS } from './request-user.ts';
import type { Identity } from './users.ts';

/** How work done for `identity` (null: someone unknown) acts. */
export function actingFor(people: Pick<People, 'check' | 'may'>, identity: Identity | null): Acting {
  return {
    name: identity?.name ?? ANONYMOUS,
    check: async (room, want) => void (await people.check(room, identity, want)),
    may: (room, want) => people.may(room, identity, want),
  };
}
