/**
 * @module send-static-delivery
 * Static specimen data as a delivery. A file a parser reads (a `.npy` volume, a mesh, point
 * cloud or image file) is a result like a computed one (delivery/static-result.ts): a volume
 * always travels that way (with its X-Result-Id, so its OME-Zarr store opens), other files
 * once a delivery option asks for more than the file itself. Files travel as they are
 * otherwise, compressed once per file version when the client accepts it and it is worth it.
 * The Godot headset client reads STL, OBJ and FBX meshes at run time, not GLB or PLY: when it
 * asks for a static `.glb` or `.ply` mesh with no delivery options of its own, the file is read
 * as a mesh and travels as binary STL (named `<stem>.stl`) within the headset triangle budget;
 * a PLY holding points, not faces, travels as it is. HEAD, Range requests and relayed data keep
 * the streamed file.
 */
import path from 'node:path';
import type { FastifyReply } from 'fastify';
import { contentDisposition } from '../../catalog/content-disposition.ts';
import { dataMediaType } from '../../catalog/file-media-types.ts';
import { openStaticData } from '../../catalog/open-static-data.ts';
import type { SpecimenRecord } from '../../catalog/specimen-record.ts';
import { checkDeliveryFits } from '../../delivery/check-delivery.ts';
import { isEmptyDelivery, type DeliveryOptions } from '../../delivery/delivery-options.ts';
import { resolveDelivery } from '../../delivery/request-delivery.ts';
import { isHeadsetClient, type ClientProfileSettings } from '../../delivery/client-profile.ts';
import { fileVersion, staticFileSource, staticResult } from '../../delivery/static-result.ts';
import { createHostError } from '../../errors.ts';
import type { HostContext } from '../../host-context.ts';
import { specimenType } from '../../registry/specimen-functions.ts';
import { RESULT_ID_HEADER } from '../../serving/result-ids.ts';
import { requestEncoding, sendDelivery, type DeliveryReplyDeps } from '../reply-delivery.ts';
import { sendBytes } from '../send-bytes.ts';
import { sendStaticData } from '../send-opened.ts';

/** What sending static data reads from its host. */
export type StaticDeliveryDeps = DeliveryReplyDeps & { options: ClientProfileSettings } & Pick<HostContext, 'functions' | 'resultIds'>;

/** File extensions the headset cannot load as meshes. */
const CONVERTED = new Set(['.glb', '.ply']);

/** The delivery a static file gets for this request instead of its own bytes, or null when it travels as it is. */
function headsetFileDelivery(fileName: string, asked: DeliveryOptions, userAgent: string | undefined, settings: ClientProfileSettings): DeliveryOptions | null {
  if (!settings.clientProfiles || !isEmptyDelivery(asked) || !isHeadsetClient(userAgent)) return null;
  if (!CONVERTED.has(path.extname(fileName).toLowerCase())) return null;
  return { format: 'stl', max_triangles: settings.headsetTriangles };
}

/** The file as it is: compressed once per version when the client takes it, else streamed. */
async function sendFileAsItIs(ctx: StaticDeliveryDeps, reply: FastifyReply, record: SpecimenRecord): Promise<FastifyReply> {
  const source = record.data;
  reply.header('vary', 'Accept-Encoding');
  const encoding = requestEncoding(reply);
  if (reply.request.method === 'HEAD' || !source || source.kind === 'remote' || !encoding) return sendStaticData(reply, record, ctx.options);
  const version = await fileVersion(source.path);
  if (version === null) return sendStaticData(reply, record, ctx.options);
  const variant = await ctx.delivery.packedFile(source.path, version, encoding, reply.request.ip);
  if (!variant.encoding) return sendStaticData(reply, record, ctx.options);
  const head = {
    'content-type': dataMediaType(source.fileName),
    'content-disposition': contentDisposition(source.fileName),
    'content-encoding': variant.encoding,
  };
  return sendBytes(reply, [variant.bytes], head, null);
}

export async function sendStaticDelivery(ctx: StaticDeliveryDeps, reply: FastifyReply, record: SpecimenRecord, asked: DeliveryOptions): Promise<FastifyReply> {
  const source = staticFileSource(record);
  if (!source) {
    const file = record.data?.kind === 'file' ? record.data.fileName : record.id;
    if (!isEmptyDelivery(asked)) throw createHostError('SPC_ERR_DELIVERY_OPTION_MISFIT', Object.keys(asked)[0]!, `static file '${file}' is served as it is`);
    return sendFileAsItIs(ctx, reply, record);
  }
  const { method, headers } = reply.request;
  // HEAD too: it says what GET sends (the conversion is made once per file version either way).
  const headset = source.npy ? null : headsetFileDelivery(source.fileName, asked, headers['user-agent'], ctx.options);
  if (headset) {
    const mesh = await staticResult(ctx.delivery, record, source).catch(() => null);
    // A file that does not read as a mesh travels as it is.
    const stem = path.basename(source.fileName, path.extname(source.fileName));
    if (mesh?.type === 'mesh') return sendDelivery(ctx, reply, mesh, headset, stem, await ctx.resultIds.of(mesh));
  }
  const type = source.npy ? 'volume' : specimenType(ctx.functions, record);
  // A known client's profile shapes volumes; other files go as they are unless asked.
  const userAgent = source.npy ? reply.request.headers['user-agent'] : undefined;
  const delivery = resolveDelivery(asked, type, userAgent, ctx.options);
  // Plain ranges (and HEAD) are of the file's own bytes.
  const plain = isEmptyDelivery(delivery) && (!source.npy || headers.range !== undefined);
  // HEAD of a segment's surface says what GET sends: the mesh, not the file.
  if ((method === 'HEAD' && delivery.segment === undefined) || plain) return sendFileAsItIs(ctx, reply, record);
  // Opening a volume checks it as an identity answer would (header, dtype, order, size).
  if (source.npy) await openStaticData(record, { head: true }, ctx.options);
  const result = await staticResult(ctx.delivery, record, source);
  if (!result) return sendStaticData(reply, record, ctx.options);
  // A file may hold another type than its specimen declares (a .ply mesh listed as a point cloud).
  if (result.type !== type) checkDeliveryFits(delivery, result.type);
  const resultId = await ctx.resultIds.of(result);
  reply.header(RESULT_ID_HEADER, resultId);
  return sendDelivery(ctx, reply, result, delivery, record.id, resultId);
}
