/**
 * @module install-cors
 * CORS on every route (@fastify/cors), decided per request from `--cors-origin`:
 * - an origin listed by name may read and write (its preflights grant POST and DELETE);
 * - under `*` any other origin may read: its preflights grant GET and HEAD only (one asking
 *   for a write is refused before this, see cross-site-writes.ts);
 * - the admin routes (cache stats, cache clear, reload, /metrics) grant nothing to an origin
 *   that is not listed, `*` or not.
 * Preflights answer 204; the headers a browser client needs to read downloads are exposed.
 */
import cors, { type FastifyCorsOptions } from '@fastify/cors';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { isListedOrigin, type CorsOrigins } from '../http/cors-origins.ts';
import { isAdminPath } from './admin-guard.ts';

export const EXPOSED_HEADERS = ['Content-Disposition', 'Content-Length', 'Content-Range', 'Content-Type', 'Retry-After', 'X-Result-Id'];

const COMMON: FastifyCorsOptions = { exposedHeaders: EXPOSED_HEADERS, optionsSuccessStatus: 204, maxAge: 600 };

function optionsFor(origins: CorsOrigins, request: FastifyRequest): FastifyCorsOptions {
  const origin = request.headers.origin;
  if (isListedOrigin(origins, origin)) return { ...COMMON, origin: origin!, methods: ['GET', 'HEAD', 'POST', 'DELETE', 'OPTIONS'] };
  if (!origins.anyReader || isAdminPath(request.url)) return { origin: false };
  return { ...COMMON, origin: '*', methods: ['GET', 'HEAD', 'OPTIONS'] };
}

export async function installCors(app: FastifyInstance, origins: CorsOrigins): Promise<void> {
  if (!origins.anyReader && origins.listed.size === 0) return;
  await app.register(cors, () => (request: FastifyRequest, done: (error: Error | null, options: FastifyCorsOptions) => void) => done(null, optionsFor(origins, request)));
}
