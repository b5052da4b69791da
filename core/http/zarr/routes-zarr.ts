/**
 * @module routes-zarr
 * `GET /api/results/{result_id}.zarr/<key>`: a held volume result as a read-only OME-Zarr
 * v0.4 store on Zarr v2, so desktop tools open it by URL (`napari --plugin napari-ome-zarr
 * http://host/api/results/<id>.zarr`). Keys: `.zgroup`, `.zattrs` (multiscales, and omero or,
 * for a segmentation, the NGFF `image-label`: label-image.ts), and
 * per pyramid level L: `L/.zarray`, `L/.zattrs` and the chunks `L/z/y/x` (also answered as
 * `L/z.y.x`, the names of the store's first, single-level version). The pyramid is made on
 * the first read of anything but `.zgroup`. A segmentation's store also holds its surfaces'
 * levels of detail in a `meshes` group, answered by the meshes' routes (http/meshes/). An id that is unknown or no longer held
 * (or held for closed rooms only, asked by whoever may read none of them), a result
 * that is not a volume, a key the store lacks or a chunk outside the array: 404 JSON.
 * `<result_id>.ome.zarr` is the same volume as an OME-Zarr v0.5 store on Zarr v3 (serve-ome-zarr.ts).
 * `GET /api/results/{result_id}` (no `.zarr`) answers what the result is instead: its sizes,
 * and a volume's axes and the size of each, channels, time step and ranges (a viewer builds
 * its time slider from it). A result id names its content, so every answer may be cached for
 * good.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { createHostError } from '../../errors.ts';
import type { ResultIds } from '../../serving/result-ids.ts';
import type { VolumePyramids } from '../../pyramid/volume-pyramids.ts';
import type { DeliveryVariants } from '../../delivery/delivery-variants.ts';
import { imageLabel } from '../../zarr/label-image.ts';
import { isResultId } from '../../results/result-id.ts';
import { IMMUTABLE, sendImmutableJson as sendJson } from '../blobs/routes-blobs.ts';
import { summarizeResult } from '../../results/result-summary.ts';
import { encodeChunk, parseChunkKey } from '../../zarr/zarr-chunk.ts';
import { chunkShapeOf, hasOmeAxes, zarray, zattrs, zgroup, type VolumeOfStore } from '../../zarr/zarr-metadata.ts';
import { OME_ZARR, serveOmeZarrKey } from './serve-ome-zarr.ts';

/** What the store routes use of the host: results by id, their pyramids, and a segmentation's label index. */
export interface ZarrDeps {
  resultIds: Pick<ResultIds, 'findReadable'>;
  pyramids: Pick<VolumePyramids, 'of'>;
  delivery: Pick<DeliveryVariants, 'labelIndex'>;
}

type StoreRequest = FastifyRequest<{ Params: { store: string; '*'?: string } }>;

/** The held volume a store name (`<result_id>.zarr`, or `<result_id>.ome.zarr` for v0.5) stands for, or a 404. */
async function volumeOf(ctx: ZarrDeps, store: string, client: string): Promise<{ id: string; volume: VolumeOfStore }> {
  const suffix = store.endsWith(OME_ZARR) ? OME_ZARR : '.zarr';
  const id = store.endsWith(suffix) ? store.slice(0, -suffix.length) : store;
  const result = store.endsWith(suffix) && isResultId(id) ? await ctx.resultIds.findReadable(id, client) : null;
  if (!result) throw createHostError('SPC_ERR_RESULT_ID_NOT_FOUND', id);
  if (result.type !== 'volume') throw createHostError('SPC_ERR_RESULT_NOT_VOLUME', id, result.type.replace('_', ' '));
  if (!hasOmeAxes(result)) throw createHostError('SPC_ERR_RESULT_NOT_VOLUME', id, `volume of ${result.shape.length} dimension(s) (OME-Zarr takes 2 to 5)`);
  return { id, volume: result };
}

/** A level's path (`0`, `1`, ...) and the rest of the key after it; null when the key has none. */
function splitLevel(key: string): { level: number; rest: string } | null {
  const match = /^(0|[1-9]\d?)\/(.+)$/.exec(key);
  return match ? { level: Number(match[1]), rest: match[2]! } : null;
}

/** `GET /api/results/{result_id}`: what the result is (sizes, axes, ranges), without its samples. */
async function serveInfo(ctx: ZarrDeps, id: string, reply: FastifyReply): Promise<FastifyReply> {
  const result = isResultId(id) ? await ctx.resultIds.findReadable(id) : null;
  if (!result) throw createHostError('SPC_ERR_RESULT_ID_NOT_FOUND', id);
  return sendJson(reply, summarizeResult(result));
}

async function serveKey(ctx: ZarrDeps, request: StoreRequest, reply: FastifyReply): Promise<FastifyReply> {
  if (!request.params.store.endsWith('.zarr') && request.params['*'] === undefined) return serveInfo(ctx, request.params.store, reply);
  const { id, volume } = await volumeOf(ctx, request.params.store, request.ip);
  const key = (request.params['*'] ?? '').replace(/^\/+/, '');
  if (request.params.store.endsWith(OME_ZARR)) return serveOmeZarrKey(ctx, id, volume, key, reply);
  if (key === '' || key === '.zgroup') return sendJson(reply, zgroup());
  const { levels } = await ctx.pyramids.of(volume);
  if (key === '.zattrs') return sendJson(reply, zattrs(levels, id, volume.labels ? imageLabel(volume, await ctx.delivery.labelIndex(volume)) : undefined));
  const parts = splitLevel(key);
  const level = parts ? levels[parts.level] : undefined;
  if (parts && level) {
    if (parts.rest === '.zarray') return sendJson(reply, zarray(level));
    if (parts.rest === '.zattrs') return sendJson(reply, {});
    const index = parseChunkKey(parts.rest, level.shape.length);
    const bytes = index ? await encodeChunk(level, chunkShapeOf(level.shape), index) : null;
    if (bytes) return reply.header('cache-control', IMMUTABLE).type('application/octet-stream').send(bytes);
  }
  throw createHostError('SPC_ERR_ZARR_KEY_NOT_FOUND', key, id);
}

export async function zarrRoutes(app: FastifyInstance, { ctx }: { ctx: ZarrDeps }): Promise<void> {
  const schema = {
    summary: 'A held volume result as a read-only multiscale OME-Zarr v0.4 store (Zarr v2)',
    description:
      '`store` is `<result_id>.zarr` (the X-Result-Id of a /data answer), or `<result_id>.ome.zarr` for the same levels ' +
      'as OME-Zarr v0.5 on Zarr v3 ' +
      '(`zarr.json` at each node, `sharding_indexed` shards `L/c/...` of zstd inner chunks of at most 64 per axis, Range answered); ' +
      'v0.4 keys: `.zgroup`, `.zattrs` (multiscales, omero), per pyramid level L ' +
      '`L/.zarray`, `L/.zattrs` and gzip chunks `L/z/y/x`. ' +
      'A labels volume is an NGFF label image: `image-label` (colors, properties) instead of omero, levels of ids picked, never averaged. ' +
      'Open the store URL in napari (napari-ome-zarr), vizarr or Neuroglancer.',
    params: {
      type: 'object',
      required: ['store'],
      properties: { store: { type: 'string', description: '`<result_id>.zarr`' }, '*': { type: 'string', description: 'The key inside the store' } },
    },
  };
  const rootSchema = {
    ...schema,
    summary: 'What a held result is (no `.zarr`), or the root of its OME-Zarr store',
    description:
      '`GET /api/results/{result_id}`: the result\'s type and sizes without its samples; a volume\'s shape, dtype, geometry, value range and `sizes` of ' +
      'every axis, and with time or channels its `axes`, `channels`, `time_step`, `time_unit`, `vector`, `channel_ranges` and `magnitude_max`. ' +
      'With `.zarr`: the store\'s root (`.zgroup`).',
  };
  app.get('/api/results/:store', { schema: rootSchema }, (request: StoreRequest, reply) => serveKey(ctx, request, reply));
  app.get('/api/results/:store/*', { schema }, (request: StoreRequest, reply) => serveKey(ctx, request, reply));
}
