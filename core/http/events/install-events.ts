/**
 * @module install-events
 * Server-Sent Events for a host: registers @fastify/sse (a heartbeat comment every 15 s keeps
 * proxies from closing quiet streams) and the stream routes
 * (routes-events.ts), which share one bound on open streams (events/stream-limit.ts).
 */
import { fastifySSE } from '@fastify/sse';
import type { FastifyInstance } from 'fastify';
import { DEFAULT_MAX_EVENT_STREAMS, StreamLimit } from '../../events/stream-limit.ts';
import { eventRoutes, type EventRoutesOptions } from './routes-events.ts';

/** Heartbeat comments at least this often on every stream. */
export const HEARTBEAT_MS = 15_000;

export interface InstallEventsOptions {
  /** Open event streams at most, across every stream route. @defaultValue 10,000 */
  maxStreams?: number;
  /** Where room streams register, ended once their client may no longer read the room. */
  readers: EventRoutesOptions['readers'];
}

export async function installEvents(app: FastifyInstance, ctx: EventRoutesOptions['context'], options: InstallEventsOptions): Promise<void> {
  await app.register(fastifySSE, { heartbeatInterval: HEARTBEAT_MS });
  const limit = new StreamLimit(options.maxStreams ?? DEFAULT_MAX_EVENT_STREAMS);
  await app.register(eventRoutes, { context: ctx, limit, readers: options.readers });
}
