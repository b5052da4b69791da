/**
 * @module install-people
 * Puts the people service in front of every route: as a request arrives it is identified (a
 * trusted proxy's header, `Authorization: Bearer`, or a stream's `?ticket=`; an unknown token is a
 * 401 before anything else runs), and before its input is checked a request that names a room, in its
 * path or as the `room_id` its schema takes (absent: the default room), is checked against the
 * room's access: reads by GET and HEAD, writes by every other method. A route whose rooms are
 * elsewhere (MCP's tool calls) says so in its `config.roomAccess`; one that reaches rooms only
 * through what it names (a snapshot's) asks a {@link RoomsReader} once it has read them.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { createHostError, isHostError } from '../../errors.ts';
import type { People, Presented } from '../../people/people.ts';
import type { RoomUse, Want } from '../../people/room-access.ts';
import { runAs } from '../../events/acting-user.ts';
import { actingFor } from '../../people/acting-person.ts';
import { routeOf } from '../route-of.ts';
import { declareRequestIdentity, requestIdentity, setRequestIdentity } from '../../people/request-user.ts';
import { bearsUserToken, type Identity } from '../../people/users.ts';
import { ACCESS_PATH } from './routes-people.ts';
import { asUseAnswers, type RoomSpecimen } from '../../people/specimen-access.ts';
import { specimenUses } from './specimen-uses.ts';

/** How a route names the rooms it uses when they are not its `room_id` (parsed body at hand). */
export type RoomAccessOf = (request: FastifyRequest, defaultRoom: string) => RoomUse[];

declare module 'fastify' {
  interface FastifyContextConfig {
    roomAccess?: RoomAccessOf;
  }
}

type SchemaPart = { properties?: Record<string, unknown> } | undefined;

function takesRoomId(part: unknown): boolean {
  return typeof part === 'object' && part !== null && 'room_id' in ((part as SchemaPart)?.properties ?? {});
}

type RouteSchema = { querystring?: unknown; body?: unknown };

/** Where a route's schema takes `room_id` (its query first, then its body), worked out once per route. */
const roomIdParts = new WeakMap<RouteSchema, 'query' | 'body' | null>();

function roomIdPart(schema: RouteSchema): 'query' | 'body' | null {
  let part = roomIdParts.get(schema);
  if (part === undefined) roomIdParts.set(schema, (part = takesRoomId(schema.querystring) ? 'query' : takesRoomId(schema.body) ? 'body' : null));
  return part;
}

/** The rooms a request uses, from its path, its schema's `room_id`, or its route's own say. */
export function roomUses(request: FastifyRequest, defaultRoom: string): RoomUse[] {
  const route = routeOf(request);
  const own = route.config?.roomAccess;
  if (own) return own(request, defaultRoom);
  const want: Want = request.method === 'GET' || request.method === 'HEAD' ? 'read' : 'write';
  const params = request.params as Record<string, unknown> | undefined;
  if (typeof params?.room_id === 'string') return [{ room: params.room_id || defaultRoom, want }];
  const schema = route.schema as RouteSchema | undefined;
  const part = schema ? roomIdPart(schema) : null;
  if (part === null) return [];
  const given = (request[part] as Record<string, unknown> | null | undefined)?.room_id;
  return [{ room: typeof given === 'string' && given ? given : defaultRoom, want }];
}

function ticketOf(request: FastifyRequest): string | undefined {
  if (request.method !== 'GET' && request.method !== 'HEAD') return undefined;
  const ticket = (request.query as Record<string, unknown> | undefined)?.ticket;
  return typeof ticket === 'string' ? ticket : undefined;
}

/**
 * Whether a request may read one of `rooms` at least: for what it reaches through something
 * else it names (a snapshot, which belongs to the rooms it was taken of), asked by the route.
 */
export type RoomsReader = (request: FastifyRequest, rooms: readonly string[]) => Promise<boolean>;

/** The {@link RoomsReader} of `people`, for the routes. */
export function roomsReader(people: People): RoomsReader {
  return (request, rooms) => people.mayAny(rooms, requestIdentity(request), 'read');
}

/** Checks `uses` one after another, asking the store of each (the first refusal throws). */
async function checkEach(people: People, request: FastifyRequest, uses: RoomUse[]): Promise<void> {
  for (const use of uses) {
    try {
      await people.check(use.room, requestIdentity(request), use.want);
    } catch (error) {
      throw asUseAnswers(use, error);
    }
  }
}

export interface PeopleHookOptions {
  defaultRoomId: string;
  userHeader: string;
  /** Routes the admin token guards, where an unknown token on a host with no users answers as a wrong admin token (403). */
  adminGuarded(request: FastifyRequest): boolean;
  /** The specimen of an id (whose room it was published for), for the routes that name one in their path. */
  specimen(id: string): RoomSpecimen | undefined;
}

export function installPeople(app: FastifyInstance, people: People, options: PeopleHookOptions): void {
  const header = options.userHeader.toLowerCase();
  const nobody = actingFor(people, null);
  declareRequestIdentity(app);
  const identify = async (request: FastifyRequest, shown: Presented): Promise<Identity | null> => {
    try {
      return await people.identify(shown);
    } catch (error) {
      // A token the host does not know is refused as on any route (401), but on an admin route of
      // a host that has no users, where the admin token is the only one it could be, it is a wrong
      // admin token (403). Where users exist it may be anyone's (mistyped, or a removed user's),
      // and so it is a 401 there, whatever its form.
      const unknown = isHostError(error) && error.code === 'SPC_ERR_TOKEN_UNKNOWN' && !bearsUserToken(shown.authorization);
      if (unknown && options.adminGuarded(request) && (await people.stores.users.list()).length === 0) throw createHostError('SPC_ERR_ADMIN_TOKEN_WRONG');
      throw error;
    }
  };
  // The rest of a request, and all it starts, runs as its user: room events carry `by`, the
  // user's name, or `anonymous` when the request names nobody (the host says who, never a body).
  app.addHook('onRequest', (request, _reply, done) => {
    // Nothing presented (most requests to an open host): anonymous at once, no promise on the way.
    const { authorization, [header]: proxyUser } = request.headers;
    const ticket = ticketOf(request);
    if (authorization === undefined && proxyUser === undefined && ticket === undefined) return runAs(nobody, done as () => void);
    // The peer matters only to a proxy's header (and asking the socket for it is a system call).
    const shown: Presented = { peer: proxyUser === undefined ? undefined : request.socket.remoteAddress, authorization, proxyUser, ticket };
    // A token seen before (a user's every request after the first) costs what nothing presented does.
    let known: Identity | null | undefined;
    try {
      known = people.knownNow(shown);
    } catch (error) {
      return done(error as Error);
    }
    const act = (identity: Identity | null) => {
      if (identity) setRequestIdentity(request, identity);
      runAs(identity ? actingFor(people, identity) : nobody, () => done());
    };
    if (known !== undefined) return act(known);
    identify(request, shown).then(act, done);
  });
  // Once the body is parsed and before it is checked: a refused request learns nothing of the room's routes.
  // A plain hook: where every room's access is at hand (a lone host's), the request goes on in
  // the same turn with no promise made for it; a room only a service can say of is asked there.
  app.addHook('preValidation', (request, _reply, done) => {
    if (routeOf(request).url === ACCESS_PATH) return done();
    let uses: RoomUse[] = [];
    let at = 0;
    try {
      uses = roomUses(request, options.defaultRoomId);
      // A specimen its path names that was published for a room is that room's.
      const ofSpecimen = specimenUses(request, options.specimen);
      if (ofSpecimen.length > 0) uses = [...ofSpecimen, ...uses];
      while (at < uses.length && people.checkedNow(uses[at]!.room, requestIdentity(request), uses[at]!.want)) at++;
    } catch (error) {
      return done(asUseAnswers(uses[at] ?? {}, error) as Error);
    }
    if (at === uses.length) return done();
    checkEach(people, request, uses.slice(at)).then(() => done(), done);
  });
}
