/**
 * @module routes-viewer
 * Serves the web viewer: `GET /` (the page), `GET /viewer/*` (the bundled script and
 * styles, see core/assets/browser-bundles.ts) and the VR controller models
 * (`/viewer/xr-profiles/`, routes-xr-profiles.ts). Register with `app.register(viewerRoutes)`.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { sendAsset } from '../../assets/send-asset.ts';
import { INDEX_HTML } from '../../assets/index-html.ts';
import { xrProfileRoutes } from './routes-xr-profiles.ts';

/**
 * The viewer's routes as a fastify plugin.
 * @example app.register(viewerRoutes)
 */
export async function viewerRoutes(app: FastifyInstance): Promise<void> {
  app.get('/', async (_request, reply) => reply.header('cache-control', 'no-cache').type('text/html; charset=utf-8').send(INDEX_HTML));
  app.get('/viewer/*', async (request: FastifyRequest<{ Params: { '*': string } }>, reply: FastifyReply) =>
    sendAsset(request, reply, 'viewer', request.params['*']),
  );

  await app.register(xrProfileRoutes);
}
