/**
 * @module install-cors
 * CORS on every route, decided per request from `--cors-origin`:
 * - an origin listed by name may read and write (its preflights grant POST, PUT, PATCH and DELETE);
 * - under `*` any other origin may read: its preflights grant GET and HEAD only (one asking
 *   for a write is refused before this, see cross-site-writes.ts);
 * - the admin routes (cache stats, cache clear, reload, /metrics) grant nothing to an origin
 *   that is not listed, `*` or not.
 * Preflights answer 204 (400 when they lack `Origin` or `Access-Control-Request-Method`); the
 * headers a browser client needs to read downloads are exposed; every answer varies on `Origin`.
 *
 * One synchronous hook with its header values made once: it runs on every request, so it
 * allocates nothing for a request that carries no listed origin.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify';
import { isListedOrigin, type CorsOrigins } from '../cors-origins.ts';
import { isAdminPath } from './admin-guard.ts';

export const EXPOSED_HEADERS = [
  'Content-Disposition',
  'Content-Length',
  'Content-Range',
  'Content-Type',
  'ETag',
  'Last-Modified',
  'Retry-After',
  'Vitrine-Mesh-Levels',
  'Vitrine-Provenance',
  'X-Blob-Id',
  'X-Result-Id',
  'X-Snapshot-Created',
  'X-Volume-C',
  'X-Volume-Sizes',
  'X-Volume-T',
];

const EXPOSED = EXPOSED_HEADERS.join(', ');
const MAX_AGE_SECONDS = '600';

/** What a request's origin is granted: the Allow-Origin value and the methods its preflights allow. */
interface Grant {
  origin: string;
  methods: string;
}

const ANY_READER: Grant = { origin: '*', methods: 'GET, HEAD, OPTIONS' };
const WRITER_METHODS = 'GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS';

function grantFor(origins: CorsOrigins, request: FastifyRequest): Grant | null {
  const origin = request.headers.origin;
  if (origin !== undefined && isListedOrigin(origins, origin)) return { origin, methods: WRITER_METHODS };
  if (!origins.anyReader || isAdminPath(request.url)) return null;
  return ANY_READER;
}

/** Adds `field` to the reply's `Vary` unless it (or `*`) is there already. */
function addVary(reply: FastifyReply, field: string): void {
  const current = reply.getHeader('vary');
  if (current === undefined || current === '') {
    reply.header('vary', field);
    return;
  }
  const value = Array.isArray(current) ? current.join(', ') : String(current);
  const fields = value.toLowerCase().split(',').map((f) => f.trim());
  if (!fields.includes('*') && !fields.includes(field.toLowerCase())) reply.header('vary', `${value}, ${field}`);
}

function answerPreflight(request: FastifyRequest, reply: FastifyReply, grant: Grant): void {
  const { headers } = request;
  if (!headers.origin || !headers['access-control-request-method']) {
    void reply.status(400).type('text/plain').send('Invalid Preflight Request');
    return;
  }
  reply.header('access-control-allow-methods', grant.methods);
  addVary(reply, 'Access-Control-Request-Headers');
  const asked = headers['access-control-request-headers'];
  if (asked !== undefined) reply.header('access-control-allow-headers', asked);
  reply.header('access-control-max-age', MAX_AGE_SECONDS);
  // Some browsers wait for a body on a 204 without Content-Length: 0.
  void reply.code(204).header('content-length', '0').send();
}

export function installCors(app: FastifyInstance, origins: CorsOrigins): void {
  if (!origins.anyReader && origins.listed.size === 0) return;
  // Preflights are answered by the hook, before any route's own checks (a browser sends no
  // credentials with them); a request the hook leaves alone reaches this route and is a 404.
  app.addHook('onRequest', (request: FastifyRequest, reply: FastifyReply, done: HookHandlerDoneFunction) => {
    addVary(reply, 'Origin');
    const grant = grantFor(origins, request);
    if (grant === null) return done();
    reply.header('access-control-allow-origin', grant.origin);
    reply.header('access-control-expose-headers', EXPOSED);
    if (request.method === 'OPTIONS') return answerPreflight(request, reply, grant);
    done();
  });
  app.options('*', { schema: { hide: true } }, (_request, reply) => reply.callNotFound());
}
