/**
 * @module routes-remote-store
 * `GET /api/specimens/{id}/zarr/<key>`: the OME-Zarr image a remote specimen was published
 * from, as the remote has it (v0.4 or v0.5, every level), read in place through the host: each
 * key a reader asks is read from the remote under the host's rules, limits and cache, and only
 * that key (a `Range` is passed on, so a reader of a sharded array reads a shard's index and the
 * inner chunks it needs, never a whole shard). A viewer that reads Zarr by URL (Neuroglancer's
 * `zarr://`, zarrita, napari) opens any level of the image without the host copying one; the
 * room's Neuroglancer state points its remote layers here. Only the image's metadata documents
 * and its levels' chunk keys answer (in-place-keys.ts); a specimen that is not a remote one, a
 * key outside those, or one the remote lacks is a 404. Answers are `no-cache`: the remote may
 * change under them.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { createHostError } from '../../errors.ts';
import type { HostContext } from '../../host-context.ts';
import { inPlaceKey } from '../../remote/in-place-keys.ts';
import type { ByteRange } from '../../remote/remote-bytes.ts';
import type { RemoteSpecimen } from '../../remote/remote-specimen.ts';
import { sendBytes } from '../send-bytes.ts';

type StoreRequest = FastifyRequest<{ Params: { id: string; '*'?: string } }>;

/** A single closed or suffix `Range` to pass on to the remote; null for anything else (answered from the whole key). */
export function rangeToPass(header: string | undefined): ByteRange | null {
  const match = /^bytes=\s*(\d*)\s*-\s*(\d*)\s*$/.exec(header ?? '');
  if (!match) return null;
  const [first, last] = [match[1]!, match[2]!];
  if (first === '' && last !== '' && Number(last) > 0) return { suffixLength: Number(last) };
  if (first !== '' && last !== '' && Number(last) >= Number(first)) return { offset: Number(first), length: Number(last) - Number(first) + 1 };
  return null;
}

async function specimenOf(ctx: Pick<HostContext, 'remotes'>, id: string): Promise<RemoteSpecimen> {
  // One published on another host of the service (or before a restart) is opened at a refresh.
  if (!ctx.remotes.specimen(id)) await ctx.remotes.refresh();
  const specimen = ctx.remotes.specimen(id);
  if (!specimen) throw createHostError('SPC_ERR_SPECIMEN_NOT_FOUND', id);
  return specimen;
}

async function serveKey(ctx: Pick<HostContext, 'remotes'>, request: StoreRequest, reply: FastifyReply): Promise<FastifyReply> {
  const { id } = request.params;
  const specimen = await specimenOf(ctx, id);
  const key = (request.params['*'] ?? '').replace(/^\/+/, '');
  if (!inPlaceKey(specimen.image, key)) throw createHostError('SPC_ERR_REMOTE_KEY_NOT_FOUND', key, id);
  const store = specimen.image.store;
  const type = /(^|\/)(zarr\.json|\.zarray|\.zattrs|\.zgroup)$/.test(key) ? 'application/json' : 'application/octet-stream';
  const headers = { 'content-type': type, 'cache-control': 'no-cache' };
  const range = rangeToPass(request.headers.range);
  const read = await store.inPlace(`/${key}`, range ?? undefined);
  if (!read) throw createHostError('SPC_ERR_REMOTE_KEY_NOT_FOUND', key, id);
  const size = read.size;
  // A suffix whose total the cache did not keep is answered from the whole key (HTTP needs its offset).
  if (range && ('offset' in range || size !== undefined)) {
    const first = 'offset' in range ? range.offset : size! - read.bytes.length;
    if (read.bytes.length === 0) {
      const error = createHostError('SPC_ERR_RANGE_NOT_SATISFIABLE', request.headers.range!, String(size ?? '?'));
      error.headers['content-range'] = `bytes */${size ?? '*'}`;
      throw error;
    }
    const contentRange = `bytes ${first}-${first + read.bytes.length - 1}/${size ?? '*'}`;
    const body = Buffer.from(read.bytes.buffer, read.bytes.byteOffset, read.bytes.byteLength);
    return reply.code(206).headers({ ...headers, 'accept-ranges': 'bytes', 'content-range': contentRange }).send(body);
  }
  const whole = range ? await store.inPlace(`/${key}`, undefined) : read;
  if (!whole) throw createHostError('SPC_ERR_REMOTE_KEY_NOT_FOUND', key, id);
  return sendBytes(reply, [whole.bytes], headers, null);
}

export async function remoteStoreRoutes(app: FastifyInstance, { ctx }: { ctx: Pick<HostContext, 'remotes'> }): Promise<void> {
  app.get(
    '/api/specimens/:id/zarr/*',
    {
      schema: {
        summary: 'A remote specimen’s OME-Zarr image, read in place through the host',
        description:
          'The image as its remote has it (OME-Zarr v0.4 or v0.5, every level): the root’s `zarr.json`/`.zattrs`/`.zgroup`, each level’s array ' +
          'metadata and chunk (or shard) keys, each read from the remote when asked, under the host’s remote rules and cache. A single `Range` is ' +
          'passed on (206). Open `zarr://<host>/api/specimens/{id}/zarr/` in Neuroglancer, or the URL in zarrita or napari.',
        params: {
          type: 'object',
          required: ['id'],
          properties: {
            id: { type: 'string', description: 'A specimen published from a remote' },
            '*': { type: 'string', description: 'The key inside the image' },
          },
        },
      },
    },
    (request: StoreRequest, reply) => serveKey(ctx, request, reply),
  );
}
