/**
 * @module opened-body
 * What opening a specimen's bytes gives (static data, thumbnails): a status, the headers and a
 * body, with no HTTP framework involved. core/http/send-opened.ts sends it; the federation
 * worker streams it to its relay.
 */
import type { Readable } from 'node:stream';

/** What the client asked for, as far as opening bytes is concerned. */
export interface OpenRequest {
  /** HEAD: headers only; any file opened is closed again and no body is produced. */
  head?: boolean;
  /** The `Range` header (single byte ranges are honoured). */
  range?: string;
  /** The `If-Range` header: when present the whole file is sent. */
  ifRange?: string;
  /** The `If-None-Match` header (thumbnails answer 304 on a match). */
  ifNoneMatch?: string;
  /** Aborts a remote fetch made on the client's behalf (the client left). */
  signal?: AbortSignal;
}

export interface OpenedBody {
  status: 200 | 206 | 304 | 416;
  /** Every response header, lower-case names; `content-length` when the length is known. */
  headers: Record<string, string | number>;
  /** null: no body (HEAD, 304). A stream reads from disk or a remote source as it is sent. */
  body: Readable | Buffer | null;
  /** The download name of a data file (also in Content-Disposition). */
  fileName: string | null;
}

/** The content type and length of an opened body, as the headers state them. */
export function describeOpened(opened: OpenedBody): { contentType: string; length: number | null } {
  const length = opened.headers['content-length'];
  return {
    contentType: String(opened.headers['content-type'] ?? 'application/octet-stream'),
    length: length === undefined ? null : Number(length),
  };
}
