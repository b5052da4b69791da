/**
 * @module client-errors
 * Requests the HTTP parser rejects never reach a route: headers too large (431), a request line
 * too long (414), malformed requests or chunked bodies (400) and requests whose headers or body
 * did not arrive in time (408). They get the same JSON error body as every other error, with
 * `Connection: close`, and the connection is closed.
 */
import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import type { ConnectionError, FastifyBaseLogger } from 'fastify';
import { createHostError, type HostError } from '../errors.ts';

/** A request line longer than this that overflows the header limit is reported as 414. */
const LONG_REQUEST_LINE = 8 * 1024;

interface ParserError extends Error {
  code?: string;
  reason?: string;
  rawPacket?: Buffer;
}

/** The response in flight on a socket, if any (node's own field, also read by node's default handler). */
interface SocketWithMessage extends Socket {
  _httpMessage?: { headersSent?: boolean } | null;
}

function looksLikeLongRequestLine(packet: Buffer | undefined): boolean {
  if (!packet || !/^[A-Z]+ \S/.test(packet.subarray(0, 16).toString('latin1'))) return false;
  const lineEnd = packet.indexOf('\r\n');
  return lineEnd === -1 || lineEnd > LONG_REQUEST_LINE;
}

/** The catalogued error for a parser failure, or null when there is nobody to answer. */
export function toClientError(error: ParserError, requestTimeoutSeconds: number): HostError | null {
  switch (error.code) {
    case 'ECONNRESET':
    case 'EPIPE':
      return null;
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return createHostError('SPC_ERR_REQUEST_TIMEOUT', String(requestTimeoutSeconds));
    case 'HPE_HEADER_OVERFLOW':
      return looksLikeLongRequestLine(error.rawPacket) ? createHostError('SPC_ERR_URL_TOO_LONG') : createHostError('SPC_ERR_HEADERS_TOO_LARGE');
    default:
      return createHostError('SPC_ERR_MALFORMED_REQUEST', (error.reason ?? error.message ?? 'malformed request').replace(/\.$/, ''));
  }
}

/** Serializes an error response that ends the connection. */
export function closingErrorResponse(error: HostError): string {
  const body = JSON.stringify({ status_code: error.statusCode, detail: error.message, code: error.code });
  return (
    `HTTP/1.1 ${error.statusCode} ${STATUS_CODES[error.statusCode] ?? 'Error'}\r\n` +
    `Content-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`
  );
}

/** A handler for fastify's `clientErrorHandler` (node's server `clientError` event). */
export function createClientErrorHandler(requestTimeoutSeconds: number) {
  return function onClientError(this: { log: FastifyBaseLogger }, connectionError: ConnectionError, socket: Socket): void {
    const error = connectionError as unknown as ParserError;
    const hostError = socket.destroyed ? null : toClientError(error, requestTimeoutSeconds);
    if (!hostError) {
      socket.destroy();
      return;
    }
    this.log.debug({ code: error.code }, `client error: ${hostError.message}`);
    // Only when no response has started on this connection, else the answer would corrupt it.
    const inFlight = (socket as SocketWithMessage)._httpMessage;
    if (!socket.writable || inFlight?.headersSent) {
      socket.destroy();
      return;
    }
    const force = setTimeout(() => socket.destroy(), 2000);
    force.unref();
    socket.end(closingErrorResponse(hostError), () => {
      clearTimeout(force);
      socket.destroy();
    });
  };
}
