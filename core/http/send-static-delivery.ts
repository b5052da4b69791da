/**
 * @module send-static-delivery
 * Static specimen data as a delivery: a data file compressed once per file version when the
 * client accepts it (and it is worth it); a `.npy` volume read into memory once per version,
 * so it can be shaped (dtype, window, max_dim, the headset profile) and compressed like a
 * computed volume; a GLB or PLY mesh read once per version and sent to a headset as binary STL
 * (delivery/headset-file.ts). HEAD, Range requests, relayed data and plain requests keep the streamed
 * file.
 */
import { stat } from 'node:fs/promises';
import type { FastifyReply } from 'fastify';
import { contentDisposition } from '../catalog/content-disposition.ts';
import { dataMediaType } from '../catalog/file-media-types.ts';
import { openStaticData } from '../catalog/open-static-data.ts';
import type { SpecimenRecord } from '../catalog/specimen-record.ts';
import { isEmptyDelivery, type DeliveryOptions } from '../delivery/delivery-options.ts';
import { resolveDelivery } from '../delivery/request-delivery.ts';
import { fileStem, headsetFileDelivery } from '../delivery/headset-file.ts';
import { createHostError } from '../errors.ts';
import type { HostContext } from '../host-context.ts';
import { specimenType } from '../registry/specimen-functions.ts';
import { requestEncoding, sendDelivery, sendVariant } from './reply-delivery.ts';
import { sendStaticData } from './send-opened.ts';

/** A file's version: changes when the file is rewritten. Null when it cannot be read. */
async function fileVersion(path: string): Promise<string | null> {
  const info = await stat(path).catch(() => null);
  return info?.isFile() ? `${info.mtimeMs}:${info.size}` : null;
}

/**
 * A static mesh file the headset cannot load, sent as it can (binary STL); null when the
 * request or the file is not such a case (or the file does not read as a mesh: then it
 * travels as it is).
 */
async function sendHeadsetFile(ctx: HostContext, reply: FastifyReply, source: { path: string; fileName: string }, asked: DeliveryOptions): Promise<FastifyReply | null> {
  const delivery = headsetFileDelivery(source.fileName, asked, reply.request.headers['user-agent'], ctx.options);
  const version = delivery ? await fileVersion(source.path) : null;
  if (!delivery || version === null) return null;
  const mesh = await ctx.delivery.fileResult(source.path, version).catch(() => null);
  if (mesh?.type !== 'mesh') return null;
  return sendDelivery(ctx, reply, mesh, delivery, fileStem(source.fileName));
}

export async function sendStaticDelivery(ctx: HostContext, reply: FastifyReply, record: SpecimenRecord, asked: DeliveryOptions): Promise<FastifyReply> {
  const source = record.data;
  const staticOptions = { envelopeMediaType: ctx.options.envelopeMediaType };
  const userAgent = reply.request.headers['user-agent'];
  const type = specimenType(ctx.functions, record);
  const delivery = resolveDelivery(asked, source?.kind === 'npy' ? 'volume' : type, userAgent, ctx.options);
  // HEAD too: it says what GET sends (the conversion is made once per file version either way).
  const converted = source?.kind === 'file' ? await sendHeadsetFile(ctx, reply, source, asked) : null;
  if (converted) return converted;
  // Only a .npy volume is read as a result; other files travel as they are (a known
  // client's profile does not apply to them).
  if (source?.kind !== 'npy' && !isEmptyDelivery(asked)) {
    throw createHostError('SPC_ERR_DELIVERY_OPTION_MISFIT', Object.keys(asked)[0]!, `static file '${source?.kind === 'file' ? source.fileName : record.id}' is served as it is`);
  }
  reply.header('vary', 'Accept-Encoding');
  const encoding = requestEncoding(reply);
  const shapes = source?.kind === 'npy' && !isEmptyDelivery(delivery);
  if (reply.request.method === 'HEAD' || !source || source.kind === 'remote' || (!encoding && !shapes)) {
    return sendStaticData(reply, record, staticOptions);
  }
  const version = await fileVersion(source.path);
  if (version === null) return sendStaticData(reply, record, staticOptions);
  if (source.kind === 'npy') {
    // Opening checks the file as an identity answer would (header, dtype, order, size).
    await openStaticData(record, { head: true }, staticOptions);
    const volume = await ctx.delivery.npyVolume({ path: source.path, spacing: source.spacing, origin: source.origin }, version);
    return sendDelivery(ctx, reply, volume, delivery, record.id);
  }
  const variant = await ctx.delivery.packedFile(source.path, version, encoding!);
  if (!variant.encoding) return sendStaticData(reply, record, staticOptions);
  return sendVariant(reply, variant, { 'content-type': dataMediaType(source.fileName), 'content-disposition': contentDisposition(source.fileName) });
}
