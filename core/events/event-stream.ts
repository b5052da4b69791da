/**
 * @module event-stream
 * Streams a channel of the EventHub to one client as Server-Sent Events (through the
 * @fastify/sse plugin, which install-events.ts registers with a heartbeat comment every 15 s):
 * first the given opening events, then every event the channel publishes until the client
 * goes away. Routes that stream are declared `{ sse: 'only' }`.
 *
 * @example
 * app.get('/api/events', { sse: 'only' }, (request, reply) => streamChannel(reply, hub, HOST_CHANNEL));
 */
import type { FastifyReply } from 'fastify';
import type { EventHub, HostEvent } from './event-hub.ts';

function toMessage(event: HostEvent): { event: string; data: unknown; id?: string } {
  return event.id === undefined ? { event: event.event, data: event.data } : { event: event.event, data: event.data, id: event.id };
}

/** Keeps the response open, sending `opening` and then each event of `channel`. */
export async function streamChannel(reply: FastifyReply, hub: EventHub, channel: string, opening: HostEvent[] = []): Promise<void> {
  reply.sse.keepAlive();
  const send = (event: HostEvent) => {
    if (reply.sse.isConnected) reply.sse.send(toMessage(event)).catch(() => reply.sse.close());
  };
  // Subscribe before the opening events go out, so nothing published meanwhile is lost.
  const unsubscribe = hub.subscribe(channel, send);
  reply.sse.onClose(unsubscribe);
  for (const event of opening) await reply.sse.send(toMessage(event));
}
