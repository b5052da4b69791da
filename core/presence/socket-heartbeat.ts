/**
 * @module socket-heartbeat
 * A WebSocket pinged every second and closed once it has answered nothing for HEARTBEAT_LOSS_MS,
 * so a peer that vanished without a word (a headset switched off, a network gone) leaves within
 * 5 s. Any pong counts, whatever ping it answers. Only time this process was listening counts as
 * the peer's silence: a beat that comes late (the host busy, or short of CPU) means pongs may wait
 * unread in the socket, since timers run before sockets are read, so that lateness is forgiven.
 */
import type { WebSocket } from 'ws';

/** A heartbeat ping's payload (a live socket's flow pings carry another). */
const HEARTBEAT_PING = Buffer.from('h');
/** How often a socket is pinged. */
const PING_MS = 1000;
/** How long without a pong before a socket counts as gone. */
export const HEARTBEAT_LOSS_MS = 3000;

/** Pings `socket` until it closes; `onSilent` runs (and the socket is ended) when its pongs stop. */
export function keepAlive(socket: WebSocket, onSilent: () => void): void {
  let lastPong = Date.now();
  let lastBeat = lastPong;
  const ping = setInterval(() => {
    const now = Date.now();
    const late = now - lastBeat - PING_MS;
    lastBeat = now;
    if (late > 0) lastPong = Math.min(now, lastPong + late);
    if (now - lastPong > HEARTBEAT_LOSS_MS) {
      onSilent();
      return void socket.terminate();
    }
    socket.ping(HEARTBEAT_PING);
  }, PING_MS).unref();
  socket.on('pong', () => void (lastPong = Date.now()));
  socket.once('close', () => clearInterval(ping));
}
