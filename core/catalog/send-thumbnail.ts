/**
 * @module send-thumbnail
 * Answers `GET /api/specimens/{id}/thumbnail` for any record: a file streamed from disk, a
 * data URI decoded by the server, a remote thumbnail piped through, or the placeholder PNG
 * when there is none (or its file went missing). Every answer is an image with an image
 * content type, `Content-Length`, `Cache-Control` and an `ETag` (a matching
 * `If-None-Match` gets 304).
 */
import { createHash } from 'node:crypto';
import { open, type FileHandle } from 'node:fs/promises';
import type { FastifyReply } from 'fastify';
import { createHostError } from '../errors.ts';
import type { SpecimenRecord } from './specimen-record.ts';
import { parseDataUri } from './data-uri.ts';
import { imageMediaType } from './file-media-types.ts';
import { isHeadRequest, sendHeadOnly } from './head-request.ts';
import { placeholderPng } from './placeholder-png.ts';
import { requestSignal } from './request-signal.ts';
import { sniffImageType } from './sniff-image-type.ts';

export const THUMBNAIL_CACHE_CONTROL = 'public, max-age=60';

function hashTag(bytes: Uint8Array): string {
  return `"${createHash('sha1').update(bytes).digest('base64url').slice(0, 22)}"`;
}

/** True when the request's `If-None-Match` lists `etag` (or `*`); weak comparison. */
function matches(reply: FastifyReply, etag: string): boolean {
  const header = reply.request.headers['if-none-match'];
  if (typeof header !== 'string') return false;
  const bare = etag.replace(/^W\//, '');
  return header.split(',').some((t) => {
    const tag = t.trim();
    return tag === '*' || tag.replace(/^W\//, '') === bare;
  });
}

function imageHeaders(reply: FastifyReply, type: string, length: number, etag: string): void {
  reply.header('content-type', type).header('cache-control', THUMBNAIL_CACHE_CONTROL).header('etag', etag);
  reply.header('x-content-type-options', 'nosniff');
  // An SVG opened directly must not run scripts on this origin.
  if (type === 'image/svg+xml') reply.header('content-security-policy', "default-src 'none'; style-src 'unsafe-inline'; sandbox");
  reply.header('content-length', length);
}

function sendBytes(reply: FastifyReply, type: string, bytes: Buffer, etag = hashTag(bytes)): FastifyReply {
  imageHeaders(reply, type, bytes.length, etag);
  if (matches(reply, etag)) return reply.code(304).removeHeader('content-length').send();
  return reply.send(bytes);
}

function sendPlaceholder(reply: FastifyReply): FastifyReply {
  return sendBytes(reply, 'image/png', placeholderPng());
}

async function openFile(path: string): Promise<FileHandle | null> {
  try {
    return await open(path, 'r');
  } catch {
    return null;
  }
}

async function sendFile(reply: FastifyReply, path: string): Promise<FastifyReply> {
  const handle = await openFile(path);
  if (!handle) return sendPlaceholder(reply);
  try {
    const info = await handle.stat();
    if (!info.isFile() || info.size === 0) {
      await handle.close();
      return sendPlaceholder(reply);
    }
    let type = imageMediaType(path);
    if (type === null) {
      const head = Buffer.alloc(Math.min(256, info.size));
      await handle.read(head, 0, head.length, 0);
      type = sniffImageType(head) ?? 'application/octet-stream';
    }
    const etag = `W/"${info.size.toString(16)}-${Math.floor(info.mtimeMs).toString(16)}"`;
    imageHeaders(reply, type, info.size, etag);
    if (matches(reply, etag)) {
      await handle.close();
      return reply.code(304).removeHeader('content-length').send();
    }
    if (isHeadRequest(reply)) return await sendHeadOnly(reply, handle);
    return reply.send(handle.createReadStream({ start: 0, end: info.size - 1 }));
  } catch (error) {
    await handle.close().catch(() => {});
    throw error;
  }
}

function sendDataUri(reply: FastifyReply, record: SpecimenRecord, uri: string): FastifyReply {
  const decoded = parseDataUri(uri);
  if (!decoded) throw createHostError('SPC_ERR_THUMBNAIL_INVALID', record.id, 'malformed data URI');
  if (decoded.bytes.length === 0) throw createHostError('SPC_ERR_THUMBNAIL_INVALID', record.id, 'the data URI holds no bytes');
  const declared = decoded.mediaType?.startsWith('image/') ? decoded.mediaType : null;
  const type = declared ?? sniffImageType(decoded.bytes);
  if (!type) {
    throw createHostError('SPC_ERR_THUMBNAIL_INVALID', record.id, `the data URI is not an image (${decoded.mediaType ?? 'no media type'})`);
  }
  return sendBytes(reply, type, decoded.bytes);
}

/**
 * Sends the thumbnail of `record` on `reply`.
 * @throws HostError SPC_ERR_THUMBNAIL_INVALID for a malformed or non-image data URI.
 */
export async function sendThumbnail(reply: FastifyReply, record: SpecimenRecord): Promise<FastifyReply> {
  const thumb = record.thumbnail;
  switch (thumb.kind) {
    case 'file':
      return sendFile(reply, thumb.path);
    case 'data-uri':
      return sendDataUri(reply, record, thumb.uri);
    case 'remote': {
      const fetched = await thumb.fetch(requestSignal(reply));
      reply.header('content-type', fetched.contentType).header('cache-control', THUMBNAIL_CACHE_CONTROL);
      reply.header('x-content-type-options', 'nosniff');
      const length = Buffer.isBuffer(fetched.body) ? fetched.body.length : fetched.length;
      if (length !== undefined) reply.header('content-length', length);
      return reply.send(fetched.body);
    }
    case 'none':
      return sendPlaceholder(reply);
  }
}
