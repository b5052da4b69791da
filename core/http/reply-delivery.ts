/**
 * @module reply-delivery
 * Sends a result as a delivery shapes it: its variant (shaped, encoded in its format,
 * compressed when the client accepts it and it is worth it) from the variant cache, whole,
 * with Content-Length, Content-Encoding and `Vary: Accept-Encoding`; never chunked. Identity
 * bytes in a default format keep the zero-copy paths (reply-envelope.ts, reply-json-result.ts).
 * A Range request gets identity bytes.
 */
import type { OutgoingHttpHeaders } from 'node:http';
import type { FastifyReply } from 'fastify';
import { contentDisposition } from '../catalog/content-disposition.ts';
import { chooseEncoding, type ContentEncoding } from '../delivery/content-encoding.ts';
import { defaultFormat, type DeliveryOptions } from '../delivery/delivery-options.ts';
import type { Variant } from '../delivery/delivery-variants.ts';
import { formatEncoder } from '../delivery/formats.ts';
import { TYPED_JSON } from '../delivery/pack-delivery.ts';
import { createHostError } from '../errors.ts';
import type { HostContext } from '../host-context.ts';
import type { StoredResult } from '../results/stored-result.ts';
import { resultByteLength } from '../results/to-json-result.ts';
import { sendEnvelope, toEnvelope } from './reply-envelope.ts';
import { sendJsonResult } from './reply-json-result.ts';

/** Below this many bytes of array data a result is sent as it is: compressing saves nothing worth a trip. */
const COMPRESS_FROM_BYTES = 1024;

/** The encoding a request can take (none for a Range request: ranges are of identity bytes). */
export function requestEncoding(reply: FastifyReply): ContentEncoding | null {
  const { headers } = reply.request;
  if (headers.range !== undefined) return null;
  return chooseEncoding(headers['accept-encoding']);
}

/** JSON has the same size limit compressed as plain: the text is made whole before compressing. */
function checkJsonSize(ctx: HostContext, result: StoredResult, name: string): void {
  const size = resultByteLength(result);
  if (size > ctx.options.maxJsonResultBytes) throw createHostError('SPC_ERR_RESULT_TOO_LARGE', name, String(size), String(ctx.options.maxJsonResultBytes));
}

/** Sends a made variant whole, its length known up front. */
export function sendVariant(reply: FastifyReply, variant: Variant, headers: Record<string, string>): FastifyReply {
  reply.hijack();
  const res = reply.raw;
  const head: OutgoingHttpHeaders = { ...(reply.getHeaders() as OutgoingHttpHeaders), ...headers, 'content-length': variant.bytes.byteLength, vary: 'Accept-Encoding' };
  if (variant.encoding) head['content-encoding'] = variant.encoding;
  res.writeHead(200, head);
  res.end(variant.bytes);
  return reply;
}

/** Identity bytes in the default format: an envelope, or the JSON typed result. */
function sendIdentity(ctx: HostContext, reply: FastifyReply, result: StoredResult, baseName: string): Promise<FastifyReply> | FastifyReply {
  const envelope = toEnvelope(result);
  return envelope ? sendEnvelope(reply, envelope, ctx.options.envelopeMediaType) : sendJsonResult(ctx, reply, result, baseName);
}

/** Sends `result` (a room entry, job result or loaded static volume) as `delivery` shapes it. */
export async function sendDelivery(ctx: HostContext, reply: FastifyReply, result: StoredResult, delivery: DeliveryOptions, baseName: string): Promise<FastifyReply> {
  reply.header('vary', 'Accept-Encoding');
  const format = delivery.format ?? defaultFormat(result.type);
  const isDefault = format === defaultFormat(result.type);
  const encoder = formatEncoder(result.type, format);
  const names = { baseName, envelopeMediaType: ctx.options.envelopeMediaType };
  const encoding = resultByteLength(result) < COMPRESS_FROM_BYTES ? null : requestEncoding(reply);
  const client = reply.request.ip;
  const shaped = await ctx.delivery.shaped(result, delivery, client);
  if (isDefault && !encoding) return sendIdentity(ctx, reply, shaped, baseName);
  if (isDefault && !toEnvelope(shaped)) checkJsonSize(ctx, shaped, baseName);
  const variant = await ctx.delivery.packed(shaped, format, delivery, names, encoding, !isDefault, client);
  if (isDefault && !variant.encoding) return sendIdentity(ctx, reply, shaped, baseName);
  const headers: Record<string, string> = { 'content-type': encoder.mediaType(names) };
  if (!isDefault) headers['content-disposition'] = contentDisposition(`${baseName}.${encoder.extension}`);
  return sendVariant(reply, variant, headers);
}

/** Sends `result` as the JSON typed result (/invoke, /result), compressed when accepted and worth it. */
export async function sendJsonDelivery(ctx: HostContext, reply: FastifyReply, result: StoredResult, functionName: string): Promise<FastifyReply> {
  reply.header('vary', 'Accept-Encoding');
  const size = resultByteLength(result);
  const encoding = size < COMPRESS_FROM_BYTES ? null : requestEncoding(reply);
  if (!encoding) return sendJsonResult(ctx, reply, result, functionName);
  checkJsonSize(ctx, result, functionName);
  const names = { baseName: functionName, envelopeMediaType: ctx.options.envelopeMediaType };
  const variant = await ctx.delivery.packed(result, TYPED_JSON, {}, names, encoding, false, reply.request.ip);
  if (!variant.encoding) return sendJsonResult(ctx, reply, result, functionName);
  return sendVariant(reply, variant, { 'content-type': 'application/json; charset=utf-8' });
}
