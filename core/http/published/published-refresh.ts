/**
 * @module published-refresh
 * On a Redis service, the catalog routes see what other hosts published: before a catalog
 * listing, and before any read of a specimen that is published or not known here, the host
 * brings its published copies up to date (one Redis read while nothing changed; bounded, so
 * the catalog keeps answering while Redis is away). Other specimens' routes (a dynamic
 * specimen's cache hit) cost no Redis round trip.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { SpecimenCatalog } from '../../registry/specimen-catalog.ts';
import type { PublishedSpecimens } from '../../published/published-specimens.ts';
import { routeOf } from '../route-of.ts';

const PREFIX = '/api/specimens';
const ID_ROUTE = `${PREFIX}/:id`;

/** The specimen id a catalog URL names; '' for the listing; null for other URLs. */
export function specimenIdOfUrl(url: string): string | null {
  const query = url.indexOf('?');
  const pathname = query === -1 ? url : url.slice(0, query);
  if (!pathname.startsWith(PREFIX)) return null;
  const rest = pathname.slice(PREFIX.length);
  if (rest === '' || rest === '/') return '';
  if (!rest.startsWith('/')) return null;
  const id = rest.slice(1).split('/')[0]!;
  try {
    return decodeURIComponent(id);
  } catch {
    return null;
  }
}

/**
 * The specimen id `request` names, as {@link specimenIdOfUrl} says: from the route's `:id`, already
 * decoded by the router, when it has one (every hit does); from the URL for any other request.
 */
function specimenIdOfRequest(request: FastifyRequest): string | null {
  const route = routeOf(request).url;
  if (route !== undefined && !route.startsWith(PREFIX)) return null;
  const id = (request.params as { id?: unknown } | undefined)?.id;
  return route?.startsWith(ID_ROUTE) && typeof id === 'string' ? id : specimenIdOfUrl(request.url);
}

export function installPublishedRefresh(app: FastifyInstance, catalog: SpecimenCatalog, published: PublishedSpecimens): void {
  if (!published.shared) return;
  // A plain hook, not an async one: the requests that need no refresh (every other route, a
  // plugin specimen's hit) go on with no promise made for them.
  app.addHook('onRequest', (request, _reply, done) => {
    if (request.method !== 'GET' && request.method !== 'HEAD' && request.method !== 'POST') return done();
    const id = specimenIdOfRequest(request);
    if (id === null || id === 'reload') return done();
    const known = id === '' ? undefined : catalog.get(id);
    if (known && known.origin !== 'published') return done();
    published.refresh().then(() => done(), done);
  });
}
