/**
 * @module admin-guard
 * `--admin-token`: with a token set, the routes that reveal or change every room's state
 * (cache stats, cache clear, reload) and /metrics need `Authorization: Bearer <token>`:
 * 401 without one, 403 with a wrong one. So do the writes that change what every host lists
 * or that drive any room at all: publishing and removing specimens, and `/mcp` (its tools).
 * A room's own writes are the room's to decide (people/room-access.ts): an open room is open
 * to anyone, as a headset that sends nothing needs, and a closed one asks who may. A host
 * bound beyond loopback always has a token (made at start unless `--admin-token none`).
 * A user's token (`vitrine users`) opens the guarded writes; an admin user's opens the admin
 * routes too.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { createHostError } from '../../errors.ts';
import { requestIdentity } from '../../people/request-user.ts';
import { routeOf } from '../route-of.ts';

/** Routes (method and route pattern) that need the admin token. */
export const ADMIN_ROUTES = new Set([
  'GET /api/processing/cache/stats',
  'POST /api/processing/cache/clear',
  'GET /api/specimens/reload',
  'GET /metrics',
]);

/** Writes (method and route pattern) that need the admin token when the host has one. */
export const TOKEN_WRITE_ROUTES = new Set(['PUT /api/specimens/:id', 'DELETE /api/specimens/:id', 'POST /mcp', 'GET /mcp', 'DELETE /mcp']);

const ADMIN_PATHS = new Set([...ADMIN_ROUTES].map((route) => route.slice(route.indexOf(' ') + 1)));

/** Whether a request URL (query string ignored) is one of the admin routes, whatever its method. */
export function isAdminPath(url: string): boolean {
  const query = url.indexOf('?');
  return ADMIN_PATHS.has(query === -1 ? url : url.slice(0, query));
}

/** Whether a host with an admin token guards this request's route (method and pattern). */
export function isGuardedRoute(request: FastifyRequest): boolean {
  const method = request.method === 'HEAD' ? 'GET' : request.method;
  const route = `${method} ${routeOf(request).url}`;
  return ADMIN_ROUTES.has(route) || TOKEN_WRITE_ROUTES.has(route);
}

function check(request: FastifyRequest, adminOnly: boolean): void {
  const who = requestIdentity(request);
  if (!who) {
    const error = createHostError('SPC_ERR_ADMIN_TOKEN_MISSING');
    error.headers['www-authenticate'] = 'Bearer';
    throw error;
  }
  if (adminOnly && !who.admin) throw createHostError('SPC_ERR_ADMIN_USER_NEEDED', who.name);
}

/**
 * With an admin token, the admin routes need an admin (the admin token, or a user added with
 * `--admin`) and the guarded writes need someone known (any user; the room's access decides the
 * rest). Who a request is was settled before this hook (http/people/install-people.ts), tokens
 * compared there in constant time.
 */
export function installAdminGuard(app: FastifyInstance, token: string | null): void {
  if (!token) return;
  app.addHook('onRequest', async (request) => {
    if (!isGuardedRoute(request)) return;
    const method = request.method === 'HEAD' ? 'GET' : request.method;
    check(request, ADMIN_ROUTES.has(`${method} ${routeOf(request).url}`));
  });
}
