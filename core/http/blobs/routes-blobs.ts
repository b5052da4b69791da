/**
 * @module routes-blobs
 * `GET /api/blobs/{blob_id}`: any blob this host (or its service) can make again, the same
 * bytes forever, so every cache may keep them for good: `Cache-Control: public,
 * max-age=31536000, immutable`, the id as a strong `ETag` (304 to `If-None-Match` without
 * looking anything up), ranges, and the media type and `Content-Encoding` the id fixes,
 * whatever the request's `Accept-Encoding`. No `Vary` and no cookie: the answer depends on
 * the URL alone. An id that names nothing held (unknown, dropped, malformed) is a 404.
 */
import type { FastifyInstance, FastifyReply } from 'fastify';
import { BLOB_ID_HEADER, blobOfType, readBlobId, type BlobDescriptor } from '../../delivery/blob-ids.ts';
import { defaultFormat, deliveryKey } from '../../delivery/delivery-options.ts';
import { stepDelivery } from '../../delivery/volume-step.ts';
import { TYPED_JSON } from '../../delivery/pack-delivery.ts';
import { createHostError } from '../../errors.ts';
import type { HostContext } from '../../host-context.ts';
import type { StoredResult } from '../../results/stored-result.ts';
import { sendBlob, type BlobReplyDeps, type BlobSending } from '../blob-reply.ts';
import { idParams } from '../route-inputs.ts';

/** A year: the longest a cache is asked to keep anything. */
export const IMMUTABLE = 'public, max-age=31536000, immutable';

/** A JSON document that is the same forever (one named by a result's content). */
export function sendImmutableJson(reply: FastifyReply, body: object): FastifyReply {
  return reply.header('cache-control', IMMUTABLE).type('application/json').send(JSON.stringify(body));
}

type BlobParams = { Params: { blob_id: string } };

/** Whether `If-None-Match` names the id's ETag. */
function alreadyHeld(header: string | undefined, id: string): boolean {
  return header !== undefined && header.split(',').some((tag) => tag.trim().replace(/^W\//, '') === `"${id}"`);
}

/** Public bytes: any origin may read them, and nothing varies with the request's headers. */
function publicHead(reply: FastifyReply): void {
  reply.removeHeader('vary');
  if (reply.getHeader('access-control-allow-origin') !== undefined) reply.header('access-control-allow-origin', '*');
}

/** What the blob routes read from their host. */
export type BlobDeps = BlobReplyDeps & Pick<HostContext, 'delivery' | 'resultIds'>;

/** Whether `d` names its step as /data would: in range, and in its one spelling. */
function namesItsStep(d: BlobDescriptor, result: StoredResult): boolean {
  try {
    return deliveryKey(stepDelivery(result, d.options)) === deliveryKey(d.options);
  } catch {
    return false;
  }
}

/** The bytes of blob `d` made from `result`: a variant, or null for identity bytes sent as they are. */
async function bytesOf(ctx: BlobDeps, d: BlobDescriptor, result: StoredResult, id: string): Promise<{ shaped: StoredResult; bytes: Buffer | null }> {
  const typedJson = d.format === TYPED_JSON;
  // The JSON typed result is the whole array; every other blob of a volume with time or channels is one of its steps.
  if (!typedJson && !namesItsStep(d, result)) throw createHostError('SPC_ERR_BLOB_NOT_FOUND', id);
  const delivery = typedJson || d.format === defaultFormat(result.type) ? d.options : { ...d.options, format: d.format };
  const shaped = typedJson ? result : await ctx.delivery.shaped(result, delivery);
  const plain = typedJson || d.format === defaultFormat(result.type);
  if (plain && d.encoding === null) return { shaped, bytes: null };
  const names = { baseName: d.baseName, envelopeMediaType: ctx.options.envelopeMediaType };
  const variant = await ctx.delivery.packed(shaped, d.format, delivery, names, d.encoding, !plain);
  // Compression that was not worth it never gave out this id.
  if (variant.encoding !== d.encoding) throw createHostError('SPC_ERR_BLOB_NOT_FOUND', id);
  return { shaped, bytes: variant.bytes };
}

export async function blobRoutes(app: FastifyInstance, { ctx }: { ctx: BlobDeps }): Promise<void> {
  const schema = {
    summary: 'The bytes an answer named in X-Blob-Id, the same forever',
    description:
      '`blob_id` is the `X-Blob-Id` of a `/data`, `/result` or `/invoke` answer (or a result id, or a room event\'s `blob_id`). ' +
      'Immutable (`Cache-Control: public, max-age=31536000, immutable`), a strong `ETag`, one `Range` (206), and the media type and ' +
      '`Content-Encoding` the id fixes; 404 when nothing held is that blob.',
    params: idParams('blob_id'),
  };
  app.get<BlobParams>('/api/blobs/:blob_id', { compress: false, schema }, async (request, reply) => {
    const id = request.params.blob_id;
    const read = readBlobId(id);
    if (!read) throw createHostError('SPC_ERR_BLOB_NOT_FOUND', id);
    publicHead(reply);
    // The same id is the same bytes forever: a client holding them needs nothing more.
    if (alreadyHeld(request.headers['if-none-match'] as string | undefined, id)) {
      reply.header('cache-control', IMMUTABLE).header('etag', `"${id}"`).header(BLOB_ID_HEADER, id);
      return reply.code(304).send();
    }
    const result = await ctx.resultIds.find(read.result, request.ip);
    const d = result ? blobOfType(id, read, result.type) : null;
    if (!result || !d) throw createHostError('SPC_ERR_BLOB_NOT_FOUND', id);
    const { shaped, bytes } = await bytesOf(ctx, d, result, id);
    const sending: BlobSending = { accelRedirect: null, extra: { 'cache-control': IMMUTABLE }, name: d.baseName || result.type };
    return sendBlob(ctx, reply, d, shaped, bytes, sending);
  });
}
