/**
 * @module send-asset
 * Sends one file of a browser bundle with a strong ETag (`no-cache`, so a changed build is
 * seen at once and an unchanged one costs a 304).
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { browserAssets, type BrowserAssets, type BundleName } from './browser-bundles.ts';

/** Replies with file `name` of `bundle`, 404 when it has none, 500 when it cannot be built. */
export async function sendAsset(request: FastifyRequest, reply: FastifyReply, bundle: BundleName, name: string): Promise<FastifyReply> {
  let assets: BrowserAssets;
  try {
    assets = await browserAssets(bundle);
  } catch (error) {
    request.log.error({ err: error }, `${bundle} bundle failed to build`);
    return reply.code(500).send({
      status_code: 500,
      detail: `the ${bundle} bundle could not be built: ${error instanceof Error ? error.message : String(error)}`,
      code: 'SPC_ERR_UNHANDLED',
    });
  }
  const asset = assets.get(name);
  if (!asset) return reply.code(404).send({ status_code: 404, detail: `no ${bundle} file '${name}'`, code: 'SPC_ERR_ROUTE_NOT_FOUND' });
  reply.header('etag', asset.etag).header('cache-control', 'no-cache');
  if (request.headers['if-none-match'] === asset.etag) return reply.code(304).send();
  return reply.type(asset.contentType).send(asset.body);
}
