/**
 * @module send-bytes
 * Sends bytes known whole (a list of parts, as an envelope or a made variant is) with
 * `Content-Length` and `Accept-Ranges: bytes`, honouring one `Range` (206 with
 * `Content-Range`; 416 when it starts past the end) and `If-Range`. Several ranges in one
 * request get the whole answer (200), which HTTP allows. A HEAD gets the head only.
 */
import type { OutgoingHttpHeaders } from 'node:http';
import type { FastifyReply } from 'fastify';
import { createHostError } from '../errors.ts';

/** The first and last byte (inclusive) of a single `bytes=` range over `size` bytes; null: send it all; 'unsatisfiable'. */
export function parseRange(header: string, size: number): [number, number] | null | 'unsatisfiable' {
  const match = /^bytes=\s*(\d*)\s*-\s*(\d*)\s*$/.exec(header);
  if (!match || (match[1] === '' && match[2] === '')) return null;
  if (match[1] === '') {
    // A suffix: the last N bytes.
    const n = Number(match[2]);
    if (n === 0) return 'unsatisfiable';
    return size === 0 ? 'unsatisfiable' : [Math.max(0, size - n), size - 1];
  }
  const first = Number(match[1]);
  const last = match[2] === '' ? size - 1 : Math.min(Number(match[2]), size - 1);
  if (first >= size) return 'unsatisfiable';
  if (last < first) return null;
  return [first, last];
}

/** The bytes from `first` to `last` (inclusive) of `parts`, as views (nothing copied). */
function slice(parts: readonly Uint8Array[], first: number, last: number): Uint8Array[] {
  const out: Uint8Array[] = [];
  let offset = 0;
  for (const part of parts) {
    const end = offset + part.byteLength;
    if (end > first && offset <= last) out.push(part.subarray(Math.max(0, first - offset), Math.min(part.byteLength, last + 1 - offset)));
    offset = end;
    if (offset > last) break;
  }
  return out;
}

/**
 * Writes `parts` (or the requested range of them) with `headers`. `etag` (quoted) decides
 * whether an `If-Range` still matches.
 */
export function sendBytes(reply: FastifyReply, parts: readonly Uint8Array[], headers: OutgoingHttpHeaders, etag: string | null): FastifyReply {
  const size = parts.reduce((n, part) => n + part.byteLength, 0);
  const request = reply.request;
  const rangeHeader = request.headers.range;
  const ifRange = request.headers['if-range'];
  const rangeApplies = typeof rangeHeader === 'string' && (ifRange === undefined || (etag !== null && ifRange === etag));
  const range = rangeApplies ? parseRange(rangeHeader, size) : null;
  if (range === 'unsatisfiable') {
    const error = createHostError('SPC_ERR_RANGE_NOT_SATISFIABLE', rangeHeader!, String(size));
    error.headers['content-range'] = `bytes */${size}`;
    throw error;
  }
  reply.hijack();
  const res = reply.raw;
  const head: OutgoingHttpHeaders = { ...(reply.getHeaders() as OutgoingHttpHeaders), ...headers, 'accept-ranges': 'bytes' };
  const body = range ? slice(parts, range[0], range[1]) : parts;
  head['content-length'] = range ? range[1] - range[0] + 1 : size;
  if (range) head['content-range'] = `bytes ${range[0]}-${range[1]}/${size}`;
  res.writeHead(range ? 206 : 200, head);
  if (request.method === 'HEAD') {
    res.end();
    return reply;
  }
  res.cork();
  for (const part of body) res.write(part);
  res.end();
  res.uncork();
  return reply;
}
