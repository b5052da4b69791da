/**
 * @module routes-people
 * The routes of people: `POST /api/tickets` (a one-time ticket for an event stream, for the
 * user the request is) and a room's access, `GET` (to those who may read it; an open room
 * answers `public: "write"` and no owner) and `PUT` (its owner or an admin; the first user to
 * set it when the room is open becomes its owner).
 *
 * A `PUT` decided: someone unknown is refused (401); an open room is closed by the first user
 * who sets its access, who becomes its owner (an admin may name another); a closed room's access
 * is changed by its owner (who may hand it on) or an admin. The owner the change was decided on
 * is checked again as it is stored, so of two people closing an open room at once exactly one
 * becomes its owner.
 */
import type { FastifyInstance } from 'fastify';
import { MAX_ROOM_ID_LENGTH } from '../../events/layer-slots.ts';
import { ROOM_ID_PATTERN } from '../../events/room-id.ts';
import { createHostError } from '../../errors.ts';
import type { AccessStore } from '../../people/access-store.ts';
import type { People } from '../../people/people.ts';
import { ANONYMOUS, requestIdentity } from '../../people/request-user.ts';
import { accessRefusal, checkAccessBody, OPEN_ROOM, type RoomAccess } from '../../people/room-access.ts';
import { TICKET_TTL_SECONDS } from '../../people/ticket-store.ts';
import type { Identity } from '../../people/users.ts';
import type { RoomParams } from '../route-inputs.ts';

export const ACCESS_PATH = '/api/rooms/:room_id/access';

const PARAMS = {
  type: 'object',
  required: ['room_id'],
  properties: { room_id: { type: 'string', minLength: 1, maxLength: MAX_ROOM_ID_LENGTH, pattern: ROOM_ID_PATTERN } },
};
const ACCESS_BODY = {
  type: 'object',
  properties: {
    owner: { type: 'string' },
    editors: { type: 'array', items: { type: 'string' } },
    viewers: { type: 'array', items: { type: 'string' } },
    public: { enum: ['write', 'read', 'none'] },
  },
};

const ATTEMPTS = 5;

function nextOwner(current: RoomAccess | null, who: Identity, named: string | null): string {
  if (!current) return who.admin && named ? named : who.name;
  return named ?? current.owner;
}

async function changeAccess(store: AccessStore, roomId: string, who: Identity | null, body: unknown): Promise<RoomAccess> {
  if (!who) throw createHostError('SPC_ERR_ACCESS_SIGN_IN', roomId);
  const change = checkAccessBody(body);
  for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
    const current = await store.get(roomId);
    if (current && !who.admin && who.name !== current.owner) {
      // Someone who may not even read the room is told it is not there.
      throw accessRefusal(roomId, current, who, 'read') ?? createHostError('SPC_ERR_ACCESS_OWNER_ONLY', roomId, current.owner);
    }
    const access: RoomAccess = { ...change, owner: nextOwner(current, who, change.owner) };
    const done = await store.set(roomId, access, current?.owner ?? null);
    if (done.changed) return access;
  }
  const now = await store.get(roomId);
  throw createHostError('SPC_ERR_ACCESS_OWNER_ONLY', roomId, now?.owner ?? '?');
}

export interface PeopleRouteOptions {
  people: People;
  /** Tells every host's streams of the room its new access (they close for whoever may no longer read). */
  announce(roomId: string, access: RoomAccess): Promise<void>;
}

export async function peopleRoutes(app: FastifyInstance, { people, announce }: PeopleRouteOptions): Promise<void> {
  app.post('/api/tickets', {
    schema: {
      summary: 'A one-time ticket for an event stream, for a browser whose EventSource cannot send Authorization',
      description:
        `201 \`{"ticket", "expires_in"}\`: open the stream with \`?ticket=<ticket>\` within ${TICKET_TTL_SECONDS} s; ` +
        'it serves once. 401 without a user.',
    },
  }, async (request, reply) => {
    const who = requestIdentity(request);
    if (!who) throw createHostError('SPC_ERR_TICKET_SIGN_IN');
    return reply.code(201).send({ ticket: await people.stores.tickets.issue(who), expires_in: TICKET_TTL_SECONDS });
  });

  app.get('/api/me', { schema: { summary: 'Who the host takes the request for: `{"name", "admin"}` (`anonymous` when nobody is known)' } }, async (request) => {
    const who = requestIdentity(request);
    return { name: who?.name ?? ANONYMOUS, admin: who?.admin ?? false };
  });

  app.get<RoomParams>(ACCESS_PATH, { schema: { summary: "Who may read and write a room", params: PARAMS } }, async (request) =>
    (await people.check(request.params.room_id, requestIdentity(request), 'read')) ?? OPEN_ROOM,
  );

  app.put<RoomParams>(ACCESS_PATH, {
    schema: {
      summary: "Close a room, or change who may read and write it",
      description:
        '`{"owner", "editors": [...], "viewers": [...], "public": "write" | "read" | "none"}`. The owner or an admin may set it; on an open room the first ' +
        'user to set it becomes its owner. Owner and editors read and write, viewers read, everyone else as `public` says (default `none`).',
      params: PARAMS,
      body: ACCESS_BODY,
    },
  }, async (request) => {
    const access = await changeAccess(people.stores.access, request.params.room_id, requestIdentity(request), request.body);
    await announce(request.params.room_id, access).catch(() => {});
    return access;
  });
}
