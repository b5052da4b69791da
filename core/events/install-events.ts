/**
 * @module install-events
 * Server-Sent Events for a host: registers @fastify/sse (a heartbeat comment every 15 s keeps
 * proxies from closing quiet streams) and `GET /api/events`, the host-wide stream. It opens
 * with a `hello` event and then carries `reload` (a plugin was swapped in: its name,
 * functions and specimen ids) and `build-error` (under `vitrine dev`: the plugin and its
 * errors with file, line and column) events.
 */
import { fastifySSE } from '@fastify/sse';
import type { FastifyInstance } from 'fastify';
import { HOST_CHANNEL, type EventHub } from './event-hub.ts';
import { streamChannel } from './event-stream.ts';

/** Heartbeat comments at least this often on every stream. */
export const HEARTBEAT_MS = 15_000;

export async function installEvents(app: FastifyInstance, hub: EventHub): Promise<void> {
  await app.register(fastifySSE, { heartbeatInterval: HEARTBEAT_MS });
  app.get('/api/events', { sse: 'only' }, async (_request, reply) => {
    await streamChannel(reply, hub, HOST_CHANNEL, [{ event: 'hello', data: { time: Date.now() / 1000 } }]);
  });
}
