/**
 * @module stream-backlog
 * How far behind an event stream's client is, as far as the host can see: the bytes waiting in
 * the response and its socket (node's stream buffers, where every write lands once the kernel's
 * socket buffers are full), plus what the SSE layer holds for each send still waiting for the
 * socket to drain (a promise and two listeners per event, which for small events cost more
 * than the event's bytes). A stream past {@link MAX_STREAM_BACKLOG} is dropped: its socket is
 * destroyed at once, so nothing it held outlives it (ending it instead would keep the pending
 * bytes until the client read them, that is, never).
 */
import type { FastifyReply } from 'fastify';

/** Bytes a stream may have waiting for its client before the host drops the client. */
export const MAX_STREAM_BACKLOG = 1024 * 1024;

/**
 * How long a room stream's client may stay behind (the socket taking none of what waits for
 * it) before the host drops it: it reconnects and reads the state, which is all it needs.
 */
export const MAX_STREAM_BACKLOG_AGE_MS = 5000;

/** What the SSE layer holds per send waiting for a drain, beyond the bytes themselves. */
const PER_WAITING_SEND_BYTES = 512;

/** Bytes written for this stream that have not left the process. */
export function streamBacklog(reply: FastifyReply): number {
  const raw = reply.raw;
  return raw.writableLength + raw.listenerCount('drain') * PER_WAITING_SEND_BYTES;
}

/** True when the stream is past the bound; the caller closes its scope. Destroys the socket then. */
export function dropIfBehind(reply: FastifyReply): boolean {
  if (streamBacklog(reply) <= MAX_STREAM_BACKLOG) return false;
  reply.raw.destroy();
  return true;
}
