/**
 * @module serve-ome-zarr
 * `GET /api/results/{result_id}.ome.zarr/<key>`: a held volume result as a read-only OME-Zarr
 * v0.5 store on Zarr v3, beside the v0.4 store at `.zarr/` (the same pyramid, so the same
 * levels and values). Keys: `zarr.json` at the root (the group and its `ome` attributes) and
 * at each level `L/zarr.json` (the array) and its shards `L/c/<i>/<j>/...`. Every key answers
 * `Range` (206; 416 past the end), so a reader takes a shard's index and then only the inner
 * chunks it needs. A key the store lacks, or a shard outside the array: 404 JSON.
 */
import type { FastifyReply } from 'fastify';
import { createHostError } from '../../errors.ts';
import { imageLabel } from '../../zarr/label-image.ts';
import { axisNamesOf, type VolumeOfStore } from '../../zarr/zarr-metadata.ts';
import { arrayZarrJson, rootZarrJson } from '../../zarr/zarr-v3-metadata.ts';
import { encodeShard, parseShardKey } from '../../zarr/zarr-shard.ts';
import { IMMUTABLE } from '../blobs/routes-blobs.ts';
import { sendBytes } from '../send-bytes.ts';
import type { VolumePyramids } from '../../pyramid/volume-pyramids.ts';
import type { DeliveryVariants } from '../../delivery/delivery-variants.ts';

/** What the v0.5 store reads of the host: held volumes' pyramids and a segmentation's label index. */
export interface OmeZarrDeps {
  pyramids: Pick<VolumePyramids, 'of'>;
  delivery: Pick<DeliveryVariants, 'labelIndex'>;
}

/** The store name's ending. */
export const OME_ZARR = '.ome.zarr';

function sendDocument(reply: FastifyReply, doc: object): FastifyReply {
  return sendBytes(reply, [Buffer.from(JSON.stringify(doc))], { 'content-type': 'application/json', 'cache-control': IMMUTABLE }, null);
}

export async function serveOmeZarrKey(ctx: OmeZarrDeps, id: string, volume: VolumeOfStore, key: string, reply: FastifyReply): Promise<FastifyReply> {
  const { levels } = await ctx.pyramids.of(volume);
  if (key === '' || key === 'zarr.json') {
    const label = volume.labels ? imageLabel(volume, await ctx.delivery.labelIndex(volume)) : undefined;
    return sendDocument(reply, rootZarrJson(levels, id, label));
  }
  const match = /^(0|[1-9]\d?)\/(.+)$/.exec(key);
  const level = match ? levels[Number(match[1])] : undefined;
  if (match && level) {
    if (match[2] === 'zarr.json') return sendDocument(reply, arrayZarrJson(level, axisNamesOf(volume)));
    const index = parseShardKey(match[2]!, level.shape.length);
    const shard = index ? await encodeShard(level, index) : null;
    if (shard) return sendBytes(reply, [shard], { 'content-type': 'application/octet-stream', 'cache-control': IMMUTABLE }, null);
  }
  throw createHostError('SPC_ERR_ZARR_KEY_NOT_FOUND', key, id);
}
