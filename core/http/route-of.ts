/**
 * @module route-of
 * A request's route options, read once. Fastify builds a new `routeOptions` object (a dozen
 * fields and a look at the router's constraints) each time it is read, and several hooks of
 * every request read it: the metrics, the admin guard, the people check, the revalidation, the
 * published refresh, the JSON body. The first read is kept on the request, in a slot the root
 * instance declares so every request keeps one shape. It sits low, beside the error catalog, so
 * that every layer's hooks (the people check's among them) share the one read.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';

type RouteOptions = FastifyRequest['routeOptions'];

const ROUTE = Symbol('vitrine.routeOptions');

type Carrying = { [ROUTE]?: RouteOptions | null };

/** Gives every request of `app` (and of every instance it registers) an empty slot for its route's options. */
export function declareRouteOf(app: FastifyInstance): void {
  app.decorateRequest(ROUTE as unknown as string, null);
}

/** `request.routeOptions`, built by fastify once per request. */
export function routeOf(request: FastifyRequest): RouteOptions {
  return ((request as Carrying)[ROUTE] ??= request.routeOptions);
}
