/**
 * @module routes-xr-profiles
 * `GET /viewer/xr-profiles/profilesList.json` and `GET /viewer/xr-profiles/{profile}/{file}`:
 * the shipped controller and hand models (xr-profiles.ts), where the VR viewer's model
 * factories are pointed instead of their default CDN.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { createHostError } from '../../errors.ts';
import { profilesList, XR_PROFILE_IDS, xrProfilesDir } from '../../assets/xr-profiles.ts';

const TYPES: Record<string, string> = { '.glb': 'model/gltf-binary', '.json': 'application/json; charset=utf-8' };
/** The pinned package never changes a file under the same version: a day of caching is safe. */
const CACHE = 'public, max-age=86400';

export async function xrProfileRoutes(app: FastifyInstance): Promise<void> {
  const dir = xrProfilesDir();
  const shipped = new Set<string>(XR_PROFILE_IDS);

  app.get('/viewer/xr-profiles/profilesList.json', async (_request, reply) => reply.header('cache-control', CACHE).send(profilesList()));

  app.get<{ Params: { profile: string; file: string } }>('/viewer/xr-profiles/:profile/:file', async (request, reply) => {
    const { profile, file } = request.params;
    const type = TYPES[path.extname(file)];
    // A file not shipped, or not readable, is a route that is not there.
    const notFound = () => createHostError('SPC_ERR_ROUTE_NOT_FOUND', 'GET', request.url);
    if (!shipped.has(profile) || !type || !/^[a-z0-9-]+\.(glb|json)$/.test(file)) throw notFound();
    const body = await readFile(path.join(dir, profile, file)).catch(() => Promise.reject(notFound()));
    return reply.header('cache-control', CACHE).type(type).send(body);
  });
}
