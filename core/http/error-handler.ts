/**
 * @module error-handler
 * The one error handler: catalogued host errors keep their status and message; fastify's
 * own client errors (bad JSON, body too large, ...) keep their 4xx; anything else is an
 * unexpected failure, logged in full and answered 500 without internals. No detail carries a
 * credential (redact-credentials.ts). An error answered while the client still sends its body
 * (a body past a limit, a request refused before its body was read) leaves the rest of that
 * body to be read and dropped (linger-refused-body.ts) instead of the connection closed under
 * the client, so every client reads the answer.
 * Body: `{"status_code", "detail", "code"}` on every error.
 */
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { createHostError, ERRORS, isHostError, type HostErrorCode } from '../errors.ts';
import { Redactor } from '../redact-credentials.ts';
import { lingerOnRefusedBody } from './linger-refused-body.ts';

export interface ErrorBody {
  status_code: number;
  detail: string;
  code: string;
}

/** The JSON Schema of {@link ErrorBody} (in /openapi.json, and a route's declared error responses). */
export const ERROR_BODY_SCHEMA = {
  type: 'object',
  required: ['status_code', 'detail'],
  properties: { status_code: { type: 'integer' }, detail: { type: 'string' }, code: { type: 'string' } },
} as const;

function fastifyClientError(error: FastifyError): ErrorBody | null {
  const status = error.statusCode ?? 500;
  if (status < 400 || status >= 500) return null;
  switch (error.code) {
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return { status_code: 400, detail: `request body is not valid JSON: ${error.message}`, code: 'SPC_ERR_BODY_INVALID_JSON' };
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return { status_code: 413, detail: error.message, code: 'SPC_ERR_BODY_TOO_LARGE' };
    default:
      return { status_code: status, detail: error.message, code: CODE_BY_STATUS[status] ?? 'SPC_ERR_BAD_REQUEST' };
  }
}

/** Catalogued codes for fastify's other client errors, by status (anything else is a bad request). */
const CODE_BY_STATUS: Record<number, HostErrorCode> = {
  404: 'SPC_ERR_ROUTE_NOT_FOUND',
  408: 'SPC_ERR_REQUEST_TIMEOUT',
  413: 'SPC_ERR_BODY_TOO_LARGE',
  414: 'SPC_ERR_URL_TOO_LONG',
  415: 'SPC_ERR_UNSUPPORTED_MEDIA_TYPE',
  431: 'SPC_ERR_HEADERS_TOO_LARGE',
};

export function toErrorBody(error: unknown): ErrorBody | null {
  if (isHostError(error)) return { status_code: error.statusCode, detail: error.message, code: error.code };
  if (error instanceof SyntaxError && 'statusCode' in error && (error as FastifyError).statusCode === 400) {
    return { status_code: 400, detail: `request body is not valid JSON: ${error.message}`, code: 'SPC_ERR_BODY_INVALID_JSON' };
  }
  if (error && typeof error === 'object' && 'statusCode' in error) return fastifyClientError(error as FastifyError);
  return null;
}

/**
 * A body the answer leaves unread is read and dropped while the answer goes out. Closing the
 * connection once the answer is sent (fastify's `Connection: close` after a body it refused, or
 * Node's own close after answering a client that asked for one) resets a client still sending
 * the body: Node's client reports EPIPE and never reads the answer. So the answer keeps the
 * connection open; the client closes it once its body is sent, as it asked, and a body past the
 * drain's bounds is cut off there.
 */
function drainUnreadBody(request: FastifyRequest, reply: FastifyReply): void {
  if (request.raw.complete) return;
  reply.header('connection', 'keep-alive');
  lingerOnRefusedBody(request.raw);
}

/** `redactor`: hides credentials in every detail (a URL quoted by a message, a token). */
export function installErrorHandlers(app: FastifyInstance, redactor: Redactor = new Redactor()): void {
  app.setErrorHandler((error: unknown, request: FastifyRequest, reply: FastifyReply) => {
    const found = toErrorBody(error);
    const body = found && { ...found, detail: redactor.text(found.detail) };
    drainUnreadBody(request, reply);
    if (body) {
      if (isHostError(error)) reply.headers(error.headers);
      if (body.status_code >= 500 && body.status_code !== 503) request.log.error({ err: error }, body.detail);
      return reply.code(body.status_code).type('application/json').send(body);
    }
    request.log.error({ err: error }, 'unhandled error');
    return reply.code(500).type('application/json').send({ status_code: 500, detail: ERRORS.SPC_ERR_UNHANDLED.message(), code: 'SPC_ERR_UNHANDLED' });
  });
  app.setNotFoundHandler((request: FastifyRequest, reply: FastifyReply) => {
    const error = createHostError('SPC_ERR_ROUTE_NOT_FOUND', request.method, request.url.split('?')[0] ?? '/');
    return reply.code(404).type('application/json').send({ status_code: 404, detail: redactor.text(error.message), code: error.code });
  });
}
