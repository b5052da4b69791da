/**
 * @module open-thumbnail
 * Opens the thumbnail of any record (`GET /api/specimens/{id}/thumbnail`): a file streamed
 * from disk, a data URI decoded by the server, a remote thumbnail piped through, or the
 * placeholder PNG when there is none (or its file went missing). Every answer is an image
 * with an image content type, `Content-Length`, `Cache-Control` and an `ETag` (a matching
 * `If-None-Match` gets 304). No HTTP framework here: the result is an OpenedBody.
 */
import { createHash } from 'node:crypto';
import { open } from 'node:fs/promises';
import { createHostError } from '../errors.ts';
import type { SpecimenRecord } from './specimen-record.ts';
import { parseDataUri } from './data-uri.ts';
import { imageMediaType } from './file-media-types.ts';
import type { OpenedBody, OpenRequest } from './opened-body.ts';
import { placeholderPng } from './placeholder-png.ts';
import { sniffImageType } from './sniff-image-type.ts';

export const THUMBNAIL_CACHE_CONTROL = 'public, max-age=60';

function hashTag(bytes: Uint8Array): string {
  return `"${createHash('sha1').update(bytes).digest('base64url').slice(0, 22)}"`;
}

/** True when `If-None-Match` lists `etag` (or `*`); weak comparison. */
function matches(request: OpenRequest, etag: string): boolean {
  const header = request.ifNoneMatch;
  if (typeof header !== 'string') return false;
  const bare = etag.replace(/^W\//, '');
  return header.split(',').some((t) => {
    const tag = t.trim();
    return tag === '*' || tag.replace(/^W\//, '') === bare;
  });
}

function imageHeaders(type: string, length: number, etag: string): OpenedBody['headers'] {
  const headers: OpenedBody['headers'] = { 'content-type': type, 'cache-control': THUMBNAIL_CACHE_CONTROL, etag, 'x-content-type-options': 'nosniff' };
  // An SVG opened directly must not run scripts on this origin.
  if (type === 'image/svg+xml') headers['content-security-policy'] = "default-src 'none'; style-src 'unsafe-inline'; sandbox";
  headers['content-length'] = length;
  return headers;
}

function notModified(headers: OpenedBody['headers']): OpenedBody {
  const { 'content-length': _dropped, ...rest } = headers;
  return { status: 304, headers: rest, body: null, fileName: null };
}

function openBytes(request: OpenRequest, type: string, bytes: Buffer, etag = hashTag(bytes)): OpenedBody {
  const headers = imageHeaders(type, bytes.length, etag);
  if (matches(request, etag)) return notModified(headers);
  return { status: 200, headers, body: request.head ? null : bytes, fileName: null };
}

function openPlaceholder(request: OpenRequest): OpenedBody {
  return openBytes(request, 'image/png', placeholderPng());
}

async function openFile(request: OpenRequest, path: string): Promise<OpenedBody> {
  const handle = await open(path, 'r').catch(() => null);
  if (!handle) return openPlaceholder(request);
  try {
    const info = await handle.stat();
    if (!info.isFile() || info.size === 0) {
      await handle.close();
      return openPlaceholder(request);
    }
    let type = imageMediaType(path);
    if (type === null) {
      const head = Buffer.alloc(Math.min(256, info.size));
      await handle.read(head, 0, head.length, 0);
      type = sniffImageType(head) ?? 'application/octet-stream';
    }
    const etag = `W/"${info.size.toString(16)}-${Math.floor(info.mtimeMs).toString(16)}"`;
    const headers = imageHeaders(type, info.size, etag);
    if (matches(request, etag)) {
      await handle.close();
      return notModified(headers);
    }
    if (request.head) {
      await handle.close();
      return { status: 200, headers, body: null, fileName: null };
    }
    return { status: 200, headers, body: handle.createReadStream({ start: 0, end: info.size - 1 }), fileName: null };
  } catch (error) {
    await handle.close().catch(() => {});
    throw error;
  }
}

function openDataUri(request: OpenRequest, record: SpecimenRecord, uri: string): OpenedBody {
  const decoded = parseDataUri(uri);
  if (!decoded) throw createHostError('SPC_ERR_THUMBNAIL_INVALID', record.id, 'malformed data URI');
  if (decoded.bytes.length === 0) throw createHostError('SPC_ERR_THUMBNAIL_INVALID', record.id, 'the data URI holds no bytes');
  const declared = decoded.mediaType?.startsWith('image/') ? decoded.mediaType : null;
  const type = declared ?? sniffImageType(decoded.bytes);
  if (!type) {
    throw createHostError('SPC_ERR_THUMBNAIL_INVALID', record.id, `the data URI is not an image (${decoded.mediaType ?? 'no media type'})`);
  }
  return openBytes(request, type, decoded.bytes);
}

/**
 * Opens the thumbnail of `record`.
 * @throws HostError SPC_ERR_THUMBNAIL_INVALID for a malformed or non-image data URI.
 */
export async function openThumbnail(record: SpecimenRecord, request: OpenRequest): Promise<OpenedBody> {
  const thumb = record.thumbnail;
  switch (thumb.kind) {
    case 'file':
      return openFile(request, thumb.path);
    case 'data-uri':
      return openDataUri(request, record, thumb.uri);
    case 'remote': {
      const fetched = await thumb.fetch(request.signal);
      const headers: OpenedBody['headers'] = { 'content-type': fetched.contentType, 'cache-control': THUMBNAIL_CACHE_CONTROL };
      headers['x-content-type-options'] = 'nosniff';
      const length = Buffer.isBuffer(fetched.body) ? fetched.body.length : fetched.length;
      if (length !== undefined) headers['content-length'] = length;
      return { status: 200, headers, body: fetched.body, fileName: null };
    }
    case 'none':
      return openPlaceholder(request);
  }
}
