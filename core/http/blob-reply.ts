/**
 * @module blob-reply
 * Sending a blob: the bytes a delivery makes of a result, named by their blob id
 * (delivery/blob-ids.ts). One path serves `/data`, `/result`, `/invoke` and
 * `/api/blobs/{blob_id}`: each answer carries `X-Blob-Id` and the strong `ETag` of its bytes,
 * answers 304 when `If-None-Match` already names them, honours one `Range`, and, behind a cache
 * (`--accel-redirect`), hands the bytes over to the proxy as `X-Accel-Redirect` with no body.
 * Identity bytes in the default form keep the zero-copy envelope path.
 */
import type { OutgoingHttpHeaders } from 'node:http';
import type { FastifyReply } from 'fastify';
import { contentDisposition } from '../catalog/content-disposition.ts';
import { BLOB_ID_HEADER, blobIdOf, type BlobDescriptor } from '../delivery/blob-ids.ts';
import { defaultFormat } from '../delivery/delivery-options.ts';
import { formatEncoder } from '../delivery/formats.ts';
import { TYPED_JSON } from '../delivery/pack-delivery.ts';
import type { HostContext } from '../host-context.ts';
import type { StoredResult } from '../results/stored-result.ts';
import { sendEnvelope, toEnvelope } from './reply-envelope.ts';
import { noneMatch } from './revalidate.ts';
import { sendBytes } from './send-bytes.ts';

/** What sending a blob reads from its host: the envelope media type and the JSON encoder. */
export type BlobReplyDeps = { options: Pick<HostContext['options'], 'envelopeMediaType'> } & Pick<HostContext, 'json'>;

/** How an answer names and may skip its bytes. */
export interface BlobSending {
  /** Send `X-Accel-Redirect: <prefix><blob id>` instead of the bytes (null: send them). */
  accelRedirect: string | null;
  /** Headers the answer carries besides the bytes' own (a blob URL's caching headers). */
  extra: OutgoingHttpHeaders;
  /** The specimen or function named in errors (a JSON result over its size limit). */
  name: string;
}

/** The media type and (downloads) file name of a blob's bytes. */
export function blobHead(ctx: Pick<BlobReplyDeps, 'options'>, d: BlobDescriptor, type: StoredResult['type']): OutgoingHttpHeaders {
  const head: OutgoingHttpHeaders = {};
  if (d.format === TYPED_JSON) head['content-type'] = 'application/json; charset=utf-8';
  else {
    const names = { baseName: d.baseName, envelopeMediaType: ctx.options.envelopeMediaType };
    head['content-type'] = formatEncoder(type, d.format).mediaType(names);
    if (d.format !== defaultFormat(type)) head['content-disposition'] = contentDisposition(`${d.baseName}.${formatEncoder(type, d.format).extension}`);
  }
  if (d.encoding) head['content-encoding'] = d.encoding;
  return head;
}

/**
 * Which step of a volume with time or channels the bytes are, for clients that read headers
 * rather than the envelope (an `.npy` download, a Godot client): `X-Volume-T`, `X-Volume-C`
 * and every axis's size in `X-Volume-Sizes` (`t=301,c=3,z=20,y=100,x=100`).
 */
export function stepHeaders(shaped: StoredResult): OutgoingHttpHeaders {
  if (shaped.type !== 'volume' || !shaped.step) return {};
  const { t, c, sizes } = shaped.step;
  const head: OutgoingHttpHeaders = { 'x-volume-sizes': Object.entries(sizes).map(([axis, n]) => `${axis}=${n}`).join(',') };
  if (sizes.t !== undefined) head['x-volume-t'] = String(t);
  if (sizes.c !== undefined) head['x-volume-c'] = String(c);
  return head;
}

/** A head made for a shaped result, and what it was made of. */
interface MadeHead {
  id: string;
  format: string;
  baseName: string;
  mediaType: string;
  extra: OutgoingHttpHeaders;
  head: OutgoingHttpHeaders;
}

/**
 * The last head made for each shaped result: every hit of a room entry sends the same blob the
 * same way, so its head is made once and shared (never written to: the senders copy it).
 */
const madeHeads = new WeakMap<StoredResult, MadeHead>();

/** The head of blob `d` (id `id`) of `shaped`, with `extra` (the answer's caching headers). */
function headOf(ctx: Pick<BlobReplyDeps, 'options'>, d: BlobDescriptor, shaped: StoredResult, id: string, extra: OutgoingHttpHeaders): OutgoingHttpHeaders {
  const mediaType = ctx.options.envelopeMediaType;
  const made = madeHeads.get(shaped);
  if (made && made.id === id && made.format === d.format && made.baseName === d.baseName && made.mediaType === mediaType && made.extra === extra) {
    return made.head;
  }
  const head: OutgoingHttpHeaders = { ...extra, ...blobHead(ctx, d, shaped.type), ...stepHeaders(shaped), [BLOB_ID_HEADER]: id, etag: `"${id}"` };
  head['accept-ranges'] = 'bytes';
  madeHeads.set(shaped, { id, format: d.format, baseName: d.baseName, mediaType, extra, head });
  return head;
}

/** Writes a head-only answer (304, a redirect for the proxy, or what a GET would send). */
export function headOnly(reply: FastifyReply, status: number, head: OutgoingHttpHeaders): FastifyReply {
  reply.hijack();
  reply.raw.writeHead(status, { ...(reply.getHeaders() as OutgoingHttpHeaders), ...head });
  reply.raw.end();
  return reply;
}

/**
 * Sends blob `d` of `shaped` (the result as the delivery shaped it): `bytes` when already made
 * (a variant), else the identity bytes of the default form or the JSON typed result.
 */
export async function sendBlob(
  ctx: BlobReplyDeps,
  reply: FastifyReply,
  d: BlobDescriptor,
  shaped: StoredResult,
  bytes: Buffer | null,
  sending: BlobSending,
): Promise<FastifyReply> {
  const id = blobIdOf(d, shaped.type);
  const etag = `"${id}"`;
  const head = headOf(ctx, d, shaped, id, sending.extra);
  if (noneMatch(reply.request.headers['if-none-match'], etag)) {
    const { 'content-type': _type, 'content-disposition': _name, ...rest } = head;
    return headOnly(reply, 304, rest);
  }
  if (sending.accelRedirect !== null) return headOnly(reply, 200, { ...head, 'x-accel-redirect': `${sending.accelRedirect}${id}`, 'content-length': 0 });
  if (bytes) return sendBytes(reply, [bytes], head, etag);
  const envelope = d.format === defaultFormat(shaped.type) ? toEnvelope(shaped) : null;
  const ranged = reply.request.headers.range !== undefined || reply.request.method === 'HEAD';
  if (envelope && !ranged) return sendEnvelope(reply, envelope, head);
  if (envelope) return sendBytes(reply, envelope.parts, head, etag);
  const lease = await ctx.json.acquire(shaped, sending.name);
  // Held until the response is over: the socket writes from the shared bytes.
  reply.raw.once('close', lease.release);
  return sendBytes(reply, [lease.bytes], head, etag);
}
