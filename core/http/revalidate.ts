/**
 * @module revalidate
 * Answers that change (the catalog, a specimen's metadata, a room's entry and view, a job's
 * status) are never cached blindly: they go out with `Cache-Control: no-cache` and a strong
 * `ETag` (a hash of the body), and a request whose `If-None-Match` names the current one gets
 * 304 with no body. A cache or a client may keep them, but asks each time whether they still
 * hold. Applied by route path, on GET answers of 200, before any compression; a route that set
 * the ETag itself (of the same uncompressed bytes, made once) keeps it.
 */
import { createHash } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { routeOf } from './route-of.ts';

/** The routes whose GET answers change over time and are revalidated. */
export const REVALIDATED_ROUTES: ReadonlySet<string> = new Set([
  '/api/specimens',
  '/api/specimens/',
  '/api/specimens/:id',
  '/api/rooms/:room_id/entry',
  '/api/rooms/:room_id/view',
  '/api/rooms/:room_id/annotations',
  '/api/rooms/:room_id/log',
  '/api/jobs/:id/progress',
  '/api/processing/functions',
  '/api/processing/cache/stats',
]);

/** Whether `If-None-Match` names `etag` (weak comparison, as HTTP asks for this header). */
export function noneMatch(header: string | string[] | undefined, etag: string): boolean {
  if (typeof header !== 'string') return false;
  return header.trim() === '*' || header.split(',').some((tag) => tag.trim().replace(/^W\//, '') === etag);
}

export function installRevalidation(app: FastifyInstance): void {
  app.addHook('onSend', async (request: FastifyRequest, reply: FastifyReply, payload: unknown) => {
    if ((request.method !== 'GET' && request.method !== 'HEAD') || reply.statusCode !== 200) return payload;
    if (!REVALIDATED_ROUTES.has(routeOf(request).url ?? '')) return payload;
    if (typeof payload !== 'string' && !Buffer.isBuffer(payload)) return payload;
    // A route that keeps one answer for many readers hashes it once and says so; others are hashed here.
    const set = reply.getHeader('etag');
    const etag = typeof set === 'string' ? set : `"${createHash('sha256').update(payload).digest('base64url').slice(0, 32)}"`;
    reply.header('etag', etag).header('cache-control', 'no-cache');
    if (!noneMatch(request.headers['if-none-match'], etag)) return payload;
    reply.code(304).removeHeader('content-length').removeHeader('content-type');
    return '';
  });
}
