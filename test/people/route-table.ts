/**
 * @module route-table
 * Every route a host has (method and pattern), read from fastify's own route tree, so a test
 * over "every route" covers a route added tomorrow without anyone listing it.
 */
import type { FastifyInstance } from 'fastify';

export interface Route {
  method: string;
  url: string;
}

/** The host's routes, HEAD and OPTIONS left out (they follow GET and CORS). */
export function routeTable(app: FastifyInstance): Route[] {
  const routes: Route[] = [];
  const prefixes: string[] = [];
  for (const line of app.printRoutes({ commonPrefix: false }).split('\n')) {
    const at = line.search(/[├└]── /);
    if (at < 0) continue;
    const depth = at / 4;
    const match = /^(.*?)(?: \(([A-Z, ]+)\))?$/.exec(line.slice(at + 4))!;
    const url = (prefixes[depth - 1] ?? '') + match[1]!;
    prefixes[depth] = url;
    prefixes.length = depth + 1;
    for (const method of match[2]?.split(', ') ?? []) if (method !== 'HEAD' && method !== 'OPTIONS') routes.push({ method, url });
  }
  return routes;
}
