/**
 * @module http-server
 * The node HTTP server under fastify, created with the host's timeouts: a request's headers
 * and body must arrive within `requestTimeoutSeconds` (else 408 and the connection closes, see
 * client-errors.ts), checked every second or faster.
 */
import http from 'node:http';
import type { FastifyError, FastifyReply, FastifyRequest, FastifyServerFactory } from 'fastify';
import { toErrorBody } from './error-handler.ts';
import { createClientErrorHandler } from './client-errors.ts';

/** Fastify's own default for idle keep-alive connections. */
const KEEP_ALIVE_MS = 72_000;

export function createServerFactory(requestTimeoutSeconds: number): FastifyServerFactory {
  const timeoutMs = Math.round(requestTimeoutSeconds * 1000);
  return (handler) => {
    return http.createServer(
      {
        requestTimeout: timeoutMs,
        headersTimeout: timeoutMs,
        // How often node looks for requests past their timeout (default 30 s, too coarse).
        connectionsCheckingInterval: timeoutMs > 0 ? Math.max(100, Math.min(1000, Math.floor(timeoutMs / 4))) : 30_000,
        keepAliveTimeout: KEEP_ALIVE_MS,
      },
      handler,
    );
  };
}

/** Errors fastify raises before routing (a bad URL encoding, a bad content type) in the host's JSON shape. */
function frameworkErrors(error: FastifyError, _request: FastifyRequest, reply: FastifyReply): void {
  const body = toErrorBody(error) ?? { status_code: 400, detail: error.message, code: 'SPC_ERR_BAD_REQUEST' };
  void reply.code(body.status_code).type('application/json').send(body);
}

/** The fastify options that put the host on this server and answer parser errors as JSON. */
export function serverOptions(options: { requestTimeoutSeconds: number }) {
  return {
    serverFactory: createServerFactory(options.requestTimeoutSeconds),
    clientErrorHandler: createClientErrorHandler(options.requestTimeoutSeconds),
    frameworkErrors,
  };
}
