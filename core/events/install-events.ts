/**
 * @module install-events
 * Server-Sent Events for a host: registers @fastify/sse (a heartbeat comment every 15 s keeps
 * proxies from closing quiet streams), `GET /api/events`, the host-wide stream, and the job
 * and room streams (routes-events.ts). The host-wide stream opens with a `hello` event and
 * then carries `reload` (a plugin was swapped in: its name, functions and specimen ids) and
 * `build-error` (under `vitrine dev`: the plugin and its errors with file, line and column)
 * events. Every stream route shares one bound on open streams (stream-limit.ts).
 */
import { fastifySSE } from '@fastify/sse';
import type { FastifyInstance } from 'fastify';
import type { HostContext } from '../host-context.ts';
import { HOST_CHANNEL } from './event-hub.ts';
import { streamChannel } from './event-stream.ts';
import { eventRoutes } from './routes-events.ts';
import { serializeEventData } from './shared-json.ts';
import { DEFAULT_MAX_EVENT_STREAMS, StreamLimit } from './stream-limit.ts';
import { StreamScope } from './stream-scope.ts';

/** Heartbeat comments at least this often on every stream. */
export const HEARTBEAT_MS = 15_000;

export interface InstallEventsOptions {
  /** Open event streams at most, across every stream route. @defaultValue 10,000 */
  maxStreams?: number;
}

export async function installEvents(app: FastifyInstance, ctx: HostContext, options: InstallEventsOptions = {}): Promise<void> {
  await app.register(fastifySSE, { heartbeatInterval: HEARTBEAT_MS, serializer: serializeEventData });
  const limit = new StreamLimit(options.maxStreams ?? DEFAULT_MAX_EVENT_STREAMS);
  app.get('/api/events', { sse: 'only' }, async (_request, reply) => {
    const scope = new StreamScope(reply);
    scope.add(limit.acquire());
    await streamChannel(reply, ctx.events, HOST_CHANNEL, [{ event: 'hello', data: { time: Date.now() / 1000 } }]);
  });
  await app.register(eventRoutes, { context: ctx, limit });
}
