/**
 * @module write-timeout
 * Destroys responses whose client stopped reading: a response with bytes waiting to go out and
 * no byte delivered for `writeTimeoutSeconds` (plus one second per MiB still pending, since one
 * large write shows no progress until it completes) is destroyed. Slow clients that keep reading
 * make progress and are never cut off; responses waiting for a result have nothing pending.
 */
import type { IncomingMessage, Server, ServerResponse } from 'node:http';

/** The slowest delivery rate we wait for on a single pending write, bytes per second. */
const MIN_RATE = 1024 * 1024;

interface Watched {
  delivered: number;
  since: number;
}

/** Bytes the socket has handed to the kernel (written minus still queued). */
function delivered(res: ServerResponse): number {
  const socket = res.socket;
  return socket ? (socket.bytesWritten ?? 0) - socket.writableLength : 0;
}

/** Starts watching every response of `server`; returns the function that stops watching. */
export function installWriteTimeout(server: Server, writeTimeoutSeconds: number): () => void {
  if (writeTimeoutSeconds <= 0) return () => {};
  const limitMs = writeTimeoutSeconds * 1000;
  // A response's progress is recorded at the first check that sees it (null until then), and
  // one listener shared by every response forgets it: nothing is made per request.
  const watched = new Map<ServerResponse, Watched | null>();
  function forget(this: ServerResponse): void {
    watched.delete(this);
  }
  const onRequest = (_req: IncomingMessage, res: ServerResponse) => {
    watched.set(res, null);
    res.on('close', forget);
  };
  server.on('request', onRequest);
  const timer = setInterval(() => {
    const now = Date.now();
    for (const [res, state] of watched) {
      const socket = res.socket;
      if (!socket || socket.destroyed) continue;
      const nowDelivered = delivered(res);
      if (state === null) {
        watched.set(res, { delivered: nowDelivered, since: now });
        continue;
      }
      if (socket.writableLength === 0 || nowDelivered !== state.delivered) {
        state.delivered = nowDelivered;
        state.since = now;
        continue;
      }
      if (now - state.since > limitMs + (socket.writableLength / MIN_RATE) * 1000) {
        watched.delete(res);
        socket.destroy();
      }
    }
  }, Math.max(50, Math.min(1000, limitMs / 4)));
  timer.unref();
  return () => {
    clearInterval(timer);
    server.off('request', onRequest);
    watched.clear();
  };
}
