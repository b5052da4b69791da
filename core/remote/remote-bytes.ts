/**
 * @module remote-bytes
 * What one read from a remote gives (its bytes and the version the remote says they are: its
 * ETag or Last-Modified), the byte ranges a read may ask for, and the fault a read throws:
 * `refused` (outside what the host may read) or `failed` (the remote failed, timed out or sent
 * what does not decode).
 */

export type ByteRange = { offset: number; length: number } | { suffixLength: number };

/** The HTTP `Range` header (and S3 `Range`) of `range`. */
export function rangeHeader(range: ByteRange): string {
  return 'suffixLength' in range ? `bytes=-${range.suffixLength}` : `bytes=${range.offset}-${range.offset + range.length - 1}`;
}

export interface RemoteBytes {
  bytes: Uint8Array;
  etag: string | null;
  lastModified: string | null;
  /** The whole object's length in bytes when the remote said it (a range's total, a HEAD's length). */
  size?: number;
}

export class RemoteFault extends Error {
  override name = 'RemoteFault';
  constructor(
    readonly kind: 'refused' | 'failed',
    message: string,
  ) {
    super(message);
  }
}

/** The version a read's bytes are, as the remote said it: its ETag, else its Last-Modified, else null. */
export function versionOf(read: Pick<RemoteBytes, 'etag' | 'lastModified'>): string | null {
  return read.etag ?? read.lastModified;
}
