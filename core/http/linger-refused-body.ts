/**
 * @module linger-refused-body
 * What becomes of a request body the host refused (an upload past its limit) while the client is
 * still sending it: closing at once makes the client's kernel answer its next write with a reset,
 * and a client such as Node's `http` then reports EPIPE and never reads the 413. As nginx's
 * lingering close does, the rest of the body is read and dropped, up to LINGER_BYTES or
 * LINGER_MS, so the client finishes sending and reads the answer; past either bound the
 * connection is closed. A body read to its end leaves the connection usable.
 */
import type { IncomingMessage } from 'node:http';

/** Bytes of a refused body read and dropped before the connection is closed instead. */
export const LINGER_BYTES = 1024 * 1024 * 1024;
/** Milliseconds a refused body may take to arrive before the connection is closed. */
export const LINGER_MS = 30_000;

/** Bodies already being read and dropped: each is drained once. */
const lingering = new WeakSet<IncomingMessage>();

/** Reads and drops the rest of `raw`'s body (bounded); the answer goes out meanwhile. */
export function lingerOnRefusedBody(raw: IncomingMessage): void {
  if (raw.complete || raw.destroyed || lingering.has(raw)) return;
  lingering.add(raw);
  let drained = 0;
  // A request made in process (light-my-request's, for `inject`) has no real socket to close.
  const close = (): void => {
    const socket = raw.socket as { destroy?: () => void } | null | undefined;
    if (typeof socket?.destroy === 'function') socket.destroy();
    else raw.destroy();
  };
  const timer = setTimeout(close, LINGER_MS);
  timer.unref();
  raw.once('end', () => clearTimeout(timer));
  raw.on('data', (chunk: Buffer) => {
    drained += chunk.length;
    if (drained > LINGER_BYTES) close();
  });
  raw.once('close', () => clearTimeout(timer));
  raw.resume();
}
