/**
 * @module routes-events
 * The job and room event routes: `GET /api/jobs/{id}/events` and
 * `GET /api/rooms/{room_id}/events` (Server-Sent Events). Every request error
 * (a bad `since` or room id, an unknown job, too many open streams) is decided before the
 * response switches to SSE, so it answers with its status and the JSON error body.
 *
 * Routes use the `'manual'` kind of @fastify/sse: the `'only'` kind answers a client that
 * refuses `text/event-stream` with a 406 whose body is not the host's error shape.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { HostContext } from '../host-context.ts';
import { parseSince, roomOf } from '../http/request-input.ts';
import { streamJob } from './job-events.ts';
import { streamRoom } from './room-events.ts';
import type { StreamLimit } from './stream-limit.ts';
import { StreamScope } from './stream-scope.ts';

export interface EventRoutesOptions {
  /** The host's services. */
  context: HostContext;
  /** The bound on open streams, shared with every other stream route of the host. */
  limit: StreamLimit;
  /** How often a job stream re-reads its job without a nudge, for a service that may lose them. @defaultValue never */
  jobRereadMs?: number;
}

type JobRequest = FastifyRequest<{ Params: { id: string }; Querystring: { since?: unknown } }>;

/**
 * Where a job stream resumes: `Last-Event-ID` (sent by a reconnecting EventSource, so it is
 * newer than the URL's `since`) over `?since`; a non-integer in either is a 400.
 */
export function resumeSeq(request: JobRequest): number {
  const header = request.headers['last-event-id'];
  const lastEventId = Array.isArray(header) ? header[0] : header;
  if (lastEventId !== undefined && lastEventId.trim() !== '') return parseSince(lastEventId);
  return parseSince(request.query.since);
}

export async function eventRoutes(app: FastifyInstance, opts: EventRoutesOptions): Promise<void> {
  const { context, limit } = opts;

  app.get('/api/jobs/:id/events', { sse: 'manual' }, async (request: JobRequest, reply) => {
    const since = resumeSeq(request);
    const scope = new StreamScope(reply);
    scope.add(limit.acquire());
    await streamJob(reply, scope, context.jobs, request.params.id, {
      since,
      log: request.log,
      ...(opts.jobRereadMs ? { rereadMs: opts.jobRereadMs } : {}),
    });
  });

  app.get<{ Params: { room_id: string } }>('/api/rooms/:room_id/events', { sse: 'manual' }, async (request, reply) => {
    const roomId = roomOf(context, request.params.room_id);
    const scope = new StreamScope(reply);
    scope.add(limit.acquire());
    await streamRoom(reply, scope, context.results, context.events, roomId, request.log);
  });
}
