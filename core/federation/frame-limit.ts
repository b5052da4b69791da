/**
 * @module frame-limit
 * The relay's WebSocket frame limit: a few kilobytes until a worker's hello is accepted (an
 * unauthenticated peer cannot make the relay buffer a large frame), the normal message limit
 * after it. ws fixes its limit per connection when it is created; raising it later sets the
 * receiver's limit, checked by a test against the installed ws.
 */
import type WebSocket from 'ws';

/** Largest frame accepted before the hello is accepted: a hello is a few hundred bytes. */
export const HELLO_MAX_FRAME_BYTES = 16 * 1024;

/** The receiver's field ws reads for its limit on every frame. */
interface WithReceiver {
  _receiver?: { _maxPayload?: number };
}

/** Lets `ws` receive frames up to `bytes` from now on. */
export function raiseFrameLimit(ws: WebSocket, bytes: number): void {
  const receiver = (ws as unknown as WithReceiver)._receiver;
  if (!receiver || typeof receiver._maxPayload !== 'number') throw new Error('ws receiver has no _maxPayload: cannot raise the frame limit after the hello');
  receiver._maxPayload = bytes;
}
