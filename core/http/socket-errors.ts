/**
 * @module socket-errors
 * What the host does with an error on an open WebSocket (the live, agent and relay sockets).
 * A client breaking the protocol (a frame past its socket's limit, a bad opcode, text that is not
 * UTF-8) is the client's fault, not the host's: ws has already begun closing it with the code that
 * says why (1009 for a frame too large, 1002 or 1007 for the others), so the close handshake is
 * left to finish, the client hears that code rather than a dropped connection (1006), and the log
 * says it at info level. A connection the peer dropped is let go quietly. Anything else is the
 * host's own failure: logged as an error, and the socket is ended at once.
 */
import type { FastifyRequest } from 'fastify';
import type { WebSocket } from 'ws';

/** Network faults of a connection the peer ended or broke. */
const DROPPED = new Set(['ECONNRESET', 'EPIPE', 'ETIMEDOUT']);

export function socketError(this: unknown, error: Error, socket: WebSocket, request: FastifyRequest): void {
  const code = (error as NodeJS.ErrnoException).code ?? '';
  if (code.startsWith('WS_ERR_')) {
    request.log.info({ url: request.url, code }, `a client's WebSocket frame was refused: ${error.message}`);
    return;
  }
  if (DROPPED.has(code)) {
    request.log.debug({ url: request.url, code }, 'a WebSocket connection was dropped by its peer');
    socket.terminate();
    return;
  }
  request.log.error(error);
  socket.terminate();
}
