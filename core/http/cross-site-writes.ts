/**
 * @module cross-site-writes
 * Browsers may send a POST to any address without asking first, so a page on another site
 * could start jobs, invoke functions or clear the cache of a host on its visitor's machine or
 * network. A write (any method but GET, HEAD and OPTIONS) that the browser marks as coming
 * from another origin is refused with 403 unless its origin is listed in `--cors-origin`; so is
 * a preflight asking to send one. The browser marks it with `Sec-Fetch-Site` (anything but
 * `same-origin` or `none`), or, where that header is not sent, with an `Origin` whose host and
 * port differ from the request's `Host`. Requests with neither header (the VR client, curl,
 * scripts) and the viewer's own same-origin requests pass.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify';
import { createHostError } from '../errors.ts';
import { isListedOrigin, normalizeOrigin, type CorsOrigins } from './cors-origins.ts';

const READ_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

function header(request: FastifyRequest, name: string): string | undefined {
  const value = request.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

/** Whether a browser marks the request as sent by a page of another origin. */
export function isCrossOrigin(request: FastifyRequest): boolean {
  const site = header(request, 'sec-fetch-site');
  if (site !== undefined) return site !== 'same-origin' && site !== 'none';
  const origin = header(request, 'origin');
  if (origin === undefined) return false;
  const normalized = normalizeOrigin(origin);
  // `Origin: null` (sandboxed frames, some redirects) is a page whose origin is hidden.
  if (normalized === null) return true;
  const url = new URL(normalized);
  const defaultPort = url.protocol === 'https:' ? '443' : '80';
  // `Host` as `host:port`, its port (when absent) the one of the origin's scheme.
  const host = header(request, 'host')?.trim().toLowerCase();
  if (host === undefined) return true;
  return (/:\d+$/.test(host) ? host : `${host}:${defaultPort}`) !== `${url.hostname}:${url.port || defaultPort}`;
}

/** The method a request asks to use: its own, or for a preflight the one it asks about. */
function intendedMethod(request: FastifyRequest): string {
  if (request.method !== 'OPTIONS') return request.method;
  const asked = header(request, 'access-control-request-method');
  return asked ? asked.trim().toUpperCase() : request.method;
}

/** Refuses browser writes from origins not listed in `--cors-origin`, before any route runs. */
export function installCrossSiteGuard(app: FastifyInstance, origins: CorsOrigins): void {
  // Synchronous: it runs on every request, and a read passes at the first test.
  app.addHook('onRequest', (request: FastifyRequest, _reply: FastifyReply, done: HookHandlerDoneFunction) => {
    const method = intendedMethod(request);
    if (READ_METHODS.has(method) || !isCrossOrigin(request)) return done();
    const origin = header(request, 'origin');
    if (isListedOrigin(origins, origin)) return done();
    const error = createHostError('SPC_ERR_CROSS_SITE_WRITE', method, origin ?? 'an origin the browser did not name');
    // Under `*` the page may read why it was refused; a refused preflight grants nothing.
    if (origins.anyReader && request.method !== 'OPTIONS') error.headers['access-control-allow-origin'] = '*';
    done(error);
  });
}
