/**
 * @module viewer-routes
 * Serves the web viewer: `GET /` (the page) and `GET /viewer/*` (the bundled script and
 * styles, built lazily in memory by `viewer-bundle.ts`). Register with
 * `app.register(viewerRoutes)`.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { INDEX_HTML } from './index-html.ts';
import { viewerAssets } from './viewer-bundle.ts';

/** Options of {@link viewerRoutes} (none yet). */
export type ViewerRoutesOptions = Record<string, never>;

/**
 * The viewer's routes as a fastify plugin.
 * @example app.register(viewerRoutes)
 */
export async function viewerRoutes(app: FastifyInstance, _opts: ViewerRoutesOptions | object = {}): Promise<void> {
  app.get('/', async (_request, reply) => {
    return reply.header('cache-control', 'no-cache').type('text/html; charset=utf-8').send(INDEX_HTML);
  });

  app.get('/viewer/*', async (request: FastifyRequest<{ Params: { '*': string } }>, reply: FastifyReply) => {
    const name = request.params['*'];
    let assets;
    try {
      assets = await viewerAssets();
    } catch (error) {
      request.log.error({ err: error }, 'viewer bundle failed to build');
      return reply.code(500).send({
        status_code: 500,
        detail: `the viewer could not be built: ${error instanceof Error ? error.message : String(error)}`,
      });
    }
    const asset = assets.get(name);
    if (!asset) {
      return reply.code(404).send({ status_code: 404, detail: `no viewer file '${name}'` });
    }
    reply.header('etag', asset.etag).header('cache-control', 'no-cache');
    if (request.headers['if-none-match'] === asset.etag) return reply.code(304).send();
    return reply.type(asset.contentType).send(asset.body);
  });
}
