/**
 * @module routes-client
 * `GET /client.js`: the browser build of `vitrine/client`, one ES module a page imports with
 * no bundler (`import { createClient } from 'http://HOST/client.js'`). Register with
 * `app.register(clientRoute)`.
 */
import type { FastifyInstance } from 'fastify';
import { sendAsset } from '../../assets/send-asset.ts';

/** The client script route as a fastify plugin. */
export async function clientRoute(app: FastifyInstance): Promise<void> {
  app.get('/client.js', async (request, reply) => {
    reply.header('access-control-allow-origin', '*');
    return sendAsset(request, reply, 'client', 'client.js');
  });
}
