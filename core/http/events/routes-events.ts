/**
 * @module routes-events
 * The Server-Sent Events routes, each described where it is registered (its inputs, and the
 * events it sends with their data shapes under the `x-events` extension, as in
 * core/wire/wire-types.ts): `GET /api/events` (the host's stream), `GET /api/jobs/{id}/events`
 * and `GET /api/rooms/{room_id}/events`. Every request error (a bad `since` or room id, an
 * unknown job, too many open streams) is decided before the response switches to SSE, so it
 * answers with its status and the JSON error body.
 *
 * The job and room routes use the `'manual'` kind of @fastify/sse: the `'only'` kind answers a
 * client that refuses `text/event-stream` with a 406 whose body is not the host's error shape.
 *
 * The host stream opens with the last failed build of each plugin, as it carried it: a
 * `build-error` stands until a `reload` of that plugin (a good build swapped in, or the plugin
 * removed) replaces it, so a page opened after a failed build shows the error as one open at
 * the time did.
 */
import { requestIdentity } from '../../people/request-user.ts';
import type { RoomReaders } from '../../people/room-readers.ts';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { HOST_CHANNEL } from '../../events/channels.ts';
import type { EventHub, HostEvent } from '../../events/event-hub.ts';
import { streamChannel } from '../../events/event-stream.ts';
import type { StreamLimit } from '../../events/stream-limit.ts';
import { StreamScope } from '../../events/stream-scope.ts';
import type { HostContext } from '../../host-context.ts';
import { ERROR_BODY_SCHEMA } from '../error-handler.ts';
import { streamJob } from './job-events.ts';
import { parseSince, roomOf, sinceQuery } from '../request-input.ts';
import { idParams, LAST_EVENT_ID, queryOf, ROOM_ID_PATH, SINCE } from '../route-inputs.ts';
import { streamRoom } from './room-events.ts';
import { ANONYMOUS, requestUser } from '../../people/request-user.ts';
import { PEER_KINDS, peerOf } from '../../presence/peer.ts';

export interface EventRoutesOptions {
  /** The host's parts the streams read: its events, jobs, rooms and default room. */
  context: Pick<HostContext, 'events' | 'jobs' | 'rooms' | 'scenes' | 'options' | 'presence'>;
  /** The bound on open streams, shared with every other stream route of the host. */
  limit: StreamLimit;
  /** How often a job stream re-reads its job without a nudge, for a service that may lose them. @defaultValue never */
  jobRereadMs?: number;
  /** Where each room stream registers, to be ended once its client may no longer read the room (absent: never ended so). */
  readers?: Pick<RoomReaders, 'register'>;
}

/** What of a `build-error` or `reload` event's data names its plugin. */
function pluginOf(event: HostEvent): string | null {
  const plugin = (event.data as { plugin?: unknown } | null)?.plugin;
  return typeof plugin === 'string' ? plugin : null;
}

class FailedBuilds {
  readonly #failed = new Map<string, HostEvent>();
  readonly #off: () => void;

  /** Follows the host channel of `hub` until {@link close}. */
  constructor(hub: EventHub) {
    this.#off = hub.tap((channel, event) => {
      if (channel !== HOST_CHANNEL) return;
      const plugin = pluginOf(event);
      if (plugin === null) return;
      if (event.event === 'build-error') {
        // Listed again at the end: the newest failure is the last one a new stream hears.
        this.#failed.delete(plugin);
        this.#failed.set(plugin, event);
      } else if (event.event === 'reload') {
        this.#failed.delete(plugin);
      }
    });
  }

  /** The `build-error` events that still stand, oldest first. */
  current(): HostEvent[] {
    return [...this.#failed.values()];
  }

  close(): void {
    this.#off();
  }
}

type JobRequest = FastifyRequest<{ Params: { id: string }; Querystring: { since?: string } }>;

/** A 200 event stream whose events' data follow `events` (event name → JSON schema). */
function eventStream(events: Record<string, unknown>): Record<string, unknown> {
  return {
    description: 'An event stream',
    content: {
      'text/event-stream': { schema: { type: 'string', description: 'Server-Sent Events; a comment heartbeat at least every 15 s' }, 'x-events': events },
    },
  };
}

/** The refusal past the stream bound (the JSON error body, with Retry-After). */
const BUSY = { description: 'Too many open event streams on this host (Retry-After)', ...ERROR_BODY_SCHEMA };

const ROOM_ENTRY = {
  type: 'object',
  required: ['function_name', 'specimen_id', 'params', 'type'],
  properties: {
    function_name: { type: ['string', 'null'], description: 'null for a static specimen shown in the room' },
    specimen_id: { type: ['string', 'null'] },
    params: { type: 'object', description: 'Parameter values with defaults filled' },
    type: { type: 'string' },
    result_id: { type: 'string', description: 'The X-Result-Id of the entry’s result' },
    blob_id: { type: 'string', description: 'The entry’s bytes in their default form, at /api/blobs/{blob_id}' },
  },
};
const PROGRESS = {
  type: 'object',
  required: ['seq', 'text', 'ts'],
  properties: { seq: { type: 'integer' }, text: { type: 'string' }, ts: { type: 'number' }, fraction: { type: 'number' } },
};
const JOB_END = {
  type: 'object',
  required: ['job_id', 'status', 'error'],
  properties: { job_id: { type: 'string' }, status: { enum: ['done', 'error'] }, error: { type: ['string', 'null'] } },
};

const LAYER = {
  type: 'string',
  description: 'The scene layer this is about: the active one for the room’s entry (absent while the room has no active layer)',
};
const ROOM_FAILED = {
  type: 'object',
  required: ['function_name', 'specimen_id', 'job_id', 'code', 'detail'],
  properties: {
    function_name: { type: ['string', 'null'] },
    specimen_id: { type: ['string', 'null'] },
    job_id: { type: ['string', 'null'] },
    code: { type: 'string', description: 'The error’s code (core/ERRORS.md), e.g. SPC_ERR_FUNCTION_FAILED' },
    detail: { type: 'string' },
    layer: LAYER,
  },
};
const ROOM_SCENE = {
  type: 'object',
  required: ['version', 'layers', 'active'],
  description: 'The room’s whole scene, as GET /api/rooms/{room_id}/scene answers it',
  properties: { version: { type: 'integer' }, layers: { type: 'array', items: { type: 'object' } }, active: { type: ['string', 'null'] } },
};

const HOST_SCHEMA = {
  summary:
    'Host events: hello and each build error still standing, then reload (a plugin was swapped in), build-error (vitrine dev) ' +
    'and catalog (a specimen was published, replaced or removed)',
  operationId: 'host_events',
  response: {
    200: eventStream({
      hello: { type: 'object' },
      reload: { type: 'object' },
      'build-error': { type: 'object' },
      catalog: { type: 'object', description: '{"specimens": [id]}: published specimens listed anew, changed or removed' },
    }),
    503: BUSY,
  },
};

const JOB_SCHEMA = {
  summary: 'One job as Server-Sent Events',
  description:
    'An event `progress` per message (`id:` its seq; data `{seq, text, ts, fraction?}`), then `done` or `error` ' +
    '(data `{job_id, status, error}`) and the stream closes. `Last-Event-ID` (or `since`) resumes after that seq; ' +
    'the header wins when both are given.',
  operationId: 'job_events',
  params: idParams('id'),
  querystring: queryOf({ since: SINCE }),
  headers: { type: 'object', properties: { 'last-event-id': LAST_EVENT_ID } },
  response: { 200: eventStream({ progress: PROGRESS, done: JOB_END, error: JOB_END }), 503: BUSY },
};

const ROOM_SCHEMA = {
  summary: 'One room as Server-Sent Events',
  description:
    'First `state` (the room entry, or null), `view` (the room’s shared view) and `scene` (its layers), then `computing` ' +
    '(the entry being computed plus `job_id`, null without a job) each time a computation for the room starts, `result` ' +
    '(the new entry) each time the room’s entry changes, `failed` when a computation for the room ends without a result, ' +
    '`view` each time its view changes, `scene` (the whole scene) each time it changes and `annotation` for each change ' +
    'of its marks ({op, annotation, version}: a follower that sees `version` jump by more than one reads GET /api/rooms/{room_id}/annotations again). ' +
    '`computing`, `result` and `failed` name the scene `layer` they are for; those naming the active layer (or none, in a room ' +
    'without one) are about the room’s entry, which is the active layer. A reconnecting subscriber gets `state`, `view` and `scene` again.',
  operationId: 'room_events',
  params: { type: 'object', required: ['room_id'], properties: { room_id: ROOM_ID_PATH } },
  querystring: queryOf({
    name: { type: 'string', description: 'The follower’s name in the room’s presence when the host knows no user for it (at most 64 characters)' },
    kind: { type: 'string', description: `What kind of client follows: ${PEER_KINDS.join(', ')} (default page)` },
  }),
  response: {
    200: eventStream({
      state: { oneOf: [ROOM_ENTRY, { type: 'null' }] },
      computing: {
        ...ROOM_ENTRY,
        required: [...ROOM_ENTRY.required, 'job_id'],
        properties: { ...ROOM_ENTRY.properties, job_id: { type: ['string', 'null'] }, layer: LAYER },
      },
      result: { ...ROOM_ENTRY, properties: { ...ROOM_ENTRY.properties, layer: LAYER } },
      failed: ROOM_FAILED,
      view: { type: 'object', description: 'Any of window [lo, hi], colormap, opacity, mode, camera {position, target, up}' },
      scene: ROOM_SCENE,
      annotation: {
        type: 'object',
        required: ['op', 'annotation', 'version'],
        description: '{op: add | change | remove, annotation, version}: one change to the room’s marks',
        properties: {
          op: { enum: ['add', 'change', 'remove'] },
          annotation: { type: 'object', description: 'The annotation as it is now (as it was, for remove)' },
          version: { type: 'integer' },
        },
      },
      replay: {
        type: 'object',
        description:
          'A replay playing into the room changed pace (started, paused, resumed, sought, sped, ended, stopped): ' +
          'its status as GET /api/rooms/{room_id}/replay answers it',
      },
      presence: {
        type: 'object',
        description: 'To a follower that named itself (name or kind): {op: join | leave, peer: {id, name, kind, user, since}}',
      },
    }),
    503: BUSY,
  },
};

/**
 * Where a job stream resumes: `Last-Event-ID` (sent by a reconnecting EventSource, so it is
 * newer than the URL's `since`) over `?since`.
 */
export function resumeSeq(request: JobRequest): number {
  const header = request.headers['last-event-id'];
  const lastEventId = Array.isArray(header) ? header[0] : header;
  if (lastEventId !== undefined && lastEventId.trim() !== '') return parseSince(lastEventId);
  return parseSince(sinceQuery(request.query));
}

export async function eventRoutes(app: FastifyInstance, { context, limit, jobRereadMs, readers }: EventRoutesOptions): Promise<void> {
  // The host-wide stream opens with `hello`, then carries `reload` (a plugin was swapped in:
  // its name, functions and specimen ids), `build-error` (under `vitrine dev`: the plugin
  // and its errors with file, line and column) and `catalog` (published specimens changed).
  // After `hello` come the build errors that still stand, so a page opened late shows them.
  const failedBuilds = new FailedBuilds(context.events);
  app.addHook('onClose', async () => failedBuilds.close());
  app.get('/api/events', { sse: 'only', schema: HOST_SCHEMA }, async (_request, reply) => {
    const scope = new StreamScope(reply);
    scope.add(limit.acquire());
    const opening = [{ event: 'hello', data: { time: Date.now() / 1000 } }, ...failedBuilds.current()];
    await streamChannel(reply, context.events, HOST_CHANNEL, opening);
  });

  app.get('/api/jobs/:id/events', { sse: 'manual', schema: JOB_SCHEMA }, async (request: JobRequest, reply) => {
    const since = resumeSeq(request);
    const scope = new StreamScope(reply);
    scope.add(limit.acquire());
    await streamJob(reply, scope, context.jobs, request.params.id, {
      since,
      log: request.log,
      ...(jobRereadMs ? { rereadMs: jobRereadMs } : {}),
    });
  });

  type RoomStreamRequest = { Params: { room_id: string }; Querystring: { name?: string; kind?: string } };
  app.get<RoomStreamRequest>('/api/rooms/:room_id/events', { sse: 'manual', schema: ROOM_SCHEMA }, async (request, reply) => {
    const roomId = roomOf(context, request.params.room_id);
    // Every follower is in the room's presence; one that names itself also hears who comes and goes.
    const peer = peerOf(requestUser(request), ANONYMOUS, request.query);
    const present = request.query.name !== undefined || request.query.kind !== undefined;
    reply.header('x-peer-id', peer.id);
    const scope = new StreamScope(reply);
    scope.add(limit.acquire());
    // Ended as soon as its client may no longer read the room (the room closed to them, their user removed).
    if (readers) {
      scope.add(readers.register(roomId, requestIdentity(request), () => {
        reply.sse.close();
        scope.close();
      }));
    }
    await streamRoom(reply, scope, context.rooms, context.scenes, context.events, roomId, request.log, present);
    if (scope.closed) return;
    const leave = await context.presence.follow(roomId, peer).catch((err: unknown) => {
      request.log.warn({ err, room: roomId }, 'a follower could not be listed in the room’s presence');
      return () => {};
    });
    scope.add(leave);
  });
}
