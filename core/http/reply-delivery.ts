/**
 * @module reply-delivery
 * Sends a result as a delivery shapes it: its variant (shaped, encoded in its format,
 * compressed when the client accepts it and it is worth it) from the variant cache, whole,
 * with Content-Length, Content-Encoding and `Vary: Accept-Encoding`; never chunked. Identity
 * bytes in a default format keep the zero-copy paths. Every answer names its bytes as a blob
 * (`X-Blob-Id`, a strong `ETag`; blob-reply.ts), so a cache can keep them and a client can ask
 * for a range of them. A Range request gets identity bytes.
 */
import type { FastifyReply } from 'fastify';
import type { BlobDescriptor } from '../delivery/blob-ids.ts';
import { chooseEncoding, type ContentEncoding } from '../delivery/content-encoding.ts';
import { defaultFormat, type DeliveryOptions } from '../delivery/delivery-options.ts';
import { TYPED_JSON } from '../delivery/pack-delivery.ts';
import { changesResult } from '../delivery/shape-result.ts';
import { stepDelivery } from '../delivery/volume-step.ts';
import { createHostError } from '../errors.ts';
import type { HostContext } from '../host-context.ts';
import type { StoredResult } from '../results/stored-result.ts';
import { resultByteLength } from '../results/to-json-result.ts';
import { hasMeshLevels } from '../meshes/has-levels.ts';
import { MESH_LEVELS_HEADER } from '../wire/mesh-level-types.ts';
import { sendBlob, type BlobReplyDeps, type BlobSending } from './blob-reply.ts';
import { toEnvelope } from './reply-envelope.ts';

/** What sending a delivery reads from its host: its options, the variant cache and the JSON encoder. */
export type DeliveryReplyDeps = BlobReplyDeps & {
  options: Pick<HostContext['options'], 'envelopeMediaType' | 'maxJsonResultBytes' | 'accelRedirect' | 'meshLodTriangles'>;
} & Pick<HostContext, 'delivery'>;

/** Below this many bytes of array data a result is sent as it is: compressing saves nothing worth a trip. */
const COMPRESS_FROM_BYTES = 1024;

/** The encoding a request can take (none for a Range request: ranges are of identity bytes). */
export function requestEncoding(reply: FastifyReply): ContentEncoding | null {
  const { headers } = reply.request;
  if (headers.range !== undefined) return null;
  return chooseEncoding(headers['accept-encoding']);
}

/** JSON has the same size limit compressed as plain: the text is made whole before compressing. */
function checkJsonSize(ctx: DeliveryReplyDeps, result: StoredResult, name: string): void {
  const size = resultByteLength(result);
  if (size > ctx.options.maxJsonResultBytes) throw createHostError('SPC_ERR_RESULT_TOO_LARGE', name, String(size), String(ctx.options.maxJsonResultBytes));
}

/** How an answer of `/data`, `/result` or `/invoke` sends its blob: redirected behind a cache, else itself. */
function answerSending(ctx: DeliveryReplyDeps, name: string, redirect: boolean): BlobSending {
  return { accelRedirect: redirect ? ctx.options.accelRedirect : null, extra: ANSWER_HEAD, name };
}

/** What every such answer says besides its bytes' own headers (one object: heads made of it are kept). */
const ANSWER_HEAD = Object.freeze({ 'cache-control': 'no-cache', vary: 'Accept-Encoding' });

/** The delivery's options without `format` (the descriptor keeps the format apart). */
function optionsOf(delivery: DeliveryOptions): DeliveryOptions {
  const { format: _format, ...rest } = delivery;
  return rest;
}

/**
 * Sends `result` (a room entry, job result or loaded static volume) as `delivery` shapes it;
 * a volume with time or channels, the step `delivery` names (`t`, `c`).
 * `resultId` names the unshaped result; `sending` overrides how the blob goes (a blob URL).
 */
export async function sendDelivery(
  ctx: DeliveryReplyDeps,
  reply: FastifyReply,
  result: StoredResult,
  delivery: DeliveryOptions,
  baseName: string,
  resultId: string,
  sending: BlobSending = answerSending(ctx, baseName, true),
): Promise<FastifyReply> {
  // A volume with time or channels travels one step at a time (400 for a step it lacks).
  delivery = stepDelivery(result, delivery);
  const format = delivery.format ?? defaultFormat(result.type);
  const isDefault = format === defaultFormat(result.type);
  const names = { baseName, envelopeMediaType: ctx.options.envelopeMediaType };
  const encoding = resultByteLength(result) < COMPRESS_FROM_BYTES ? null : requestEncoding(reply);
  const client = reply.request.ip;
  // Where the result's levels of detail are, when it has them: a viewer asks for them only then.
  if (hasMeshLevels(result, ctx.options.meshLodTriangles)) reply.header(MESH_LEVELS_HEADER, `/api/results/${resultId}/meshes/`);
  // The usual request shapes nothing: it goes on in this turn.
  const shaped = changesResult(result, delivery) ? await ctx.delivery.shaped(result, delivery, client) : result;
  const blob: BlobDescriptor = { result: resultId, format, options: optionsOf(delivery), encoding: null, baseName };
  if (isDefault && !encoding) return sendBlob(ctx, reply, blob, shaped, null, sending);
  if (isDefault && !toEnvelope(shaped)) checkJsonSize(ctx, shaped, baseName);
  const variant = await ctx.delivery.packed(shaped, format, delivery, names, encoding, !isDefault, client);
  if (isDefault && !variant.encoding) return sendBlob(ctx, reply, blob, shaped, null, sending);
  return sendBlob(ctx, reply, { ...blob, encoding: variant.encoding }, shaped, variant.bytes, sending);
}

/**
 * Sends `result` as the JSON typed result (/invoke, /result), compressed when accepted and
 * worth it. Behind a cache only `/result` is handed over (`redirect`): an `/invoke` is a POST.
 */
export async function sendJsonDelivery(
  ctx: DeliveryReplyDeps,
  reply: FastifyReply,
  result: StoredResult,
  functionName: string,
  resultId: string,
  redirect = false,
  sending: BlobSending = answerSending(ctx, functionName, redirect),
  shapedBy: DeliveryOptions = {},
): Promise<FastifyReply> {
  const size = resultByteLength(result);
  const encoding = size < COMPRESS_FROM_BYTES ? null : requestEncoding(reply);
  // `result` as a delivery shaped it (`shapedBy`) is other bytes than the result: its blob id says how.
  const blob: BlobDescriptor = { result: resultId, format: TYPED_JSON, options: optionsOf(shapedBy), encoding: null, baseName: '' };
  if (!encoding) return sendBlob(ctx, reply, blob, result, null, sending);
  checkJsonSize(ctx, result, functionName);
  const names = { baseName: functionName, envelopeMediaType: ctx.options.envelopeMediaType };
  const variant = await ctx.delivery.packed(result, TYPED_JSON, optionsOf(shapedBy), names, encoding, false, reply.request.ip);
  if (!variant.encoding) return sendBlob(ctx, reply, blob, result, null, sending);
  return sendBlob(ctx, reply, { ...blob, encoding: variant.encoding }, result, variant.bytes, sending);
}
