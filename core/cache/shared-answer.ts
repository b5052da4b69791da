/**
 * @module shared-answer
 * A large answer made once and handed to every reader as the same bytes: its strong ETag (the
 * hash revalidate.ts would take of it) and each compressed variant are made once too. Twenty
 * readers of a room of 100,000 marks each hashing and compressing 15 MB of their own held the
 * event loop over half a second; now the hash is taken a part per turn of the loop and each
 * variant is compressed on libuv's thread pool, once per version and encoding; the parts are
 * joined a few MiB per turn. An import's
 * answer (all the marks it added) goes out the same way, without an ETag.
 */
import { createHash } from 'node:crypto';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import { joinInTurns } from '../memory/turn-batches.ts';

/** The codings a variant is made in (delivery's ContentEncoding, which sits above this folder). */
export type AnswerEncoding = 'br' | 'gzip';

/** A variant must save this share of the bytes to be sent (as delivery's variants must). */
const MIN_SAVING = 0.1;
/** Below this many bytes an answer goes as it is: compressing it saves nothing worth a trip. */
const COMPRESS_FROM = 1024;

/** Output taken from zlib at a time: fewer, larger callbacks on the event loop. */
const ZLIB_CHUNK = 256 * 1024;

const gzipAsync = promisify(gzip);
const brotliAsync = promisify(brotliCompress);

export interface SharedAnswer {
  bytes: Buffer;
  /** Quoted, as the `ETag` header carries it; null for an answer made for one reader (nothing to revalidate). */
  etag: string | null;
  /** The bytes as `encoding`, or null when compressing them is not worth it. */
  encoded(encoding: AnswerEncoding): Promise<Buffer | null>;
}

/** The same quality @fastify/compress uses for answers compressed on the fly. */
function compress(bytes: Buffer, encoding: AnswerEncoding): Promise<Buffer> {
  if (encoding === 'gzip') return gzipAsync(bytes, { level: 6, chunkSize: ZLIB_CHUNK });
  const params = { [constants.BROTLI_PARAM_QUALITY]: 4, [constants.BROTLI_PARAM_SIZE_HINT]: bytes.byteLength };
  return brotliAsync(bytes, { params, chunkSize: ZLIB_CHUNK });
}

/** The ETag of `parts` (each small enough to hash within a turn). */
async function etagOf(parts: readonly Buffer[]): Promise<string> {
  const hash = createHash('sha256');
  for (const part of parts) {
    hash.update(part);
    await nextTurn();
  }
  return `"${hash.digest('base64url').slice(0, 32)}"`;
}

/** The answer made of `parts`, with its ETag unless `tagged` is false. */
export async function sharedAnswer(parts: readonly Buffer[], tagged = true): Promise<SharedAnswer> {
  const etag = tagged ? await etagOf(parts) : null;
  const bytes = parts.length === 1 ? parts[0]! : await joinInTurns(parts);
  const variants = new Map<AnswerEncoding, Promise<Buffer | null>>();
  const encoded = (encoding: AnswerEncoding): Promise<Buffer | null> => {
    if (bytes.byteLength < COMPRESS_FROM) return Promise.resolve(null);
    let variant = variants.get(encoding);
    if (!variant) {
      variant = compress(bytes, encoding).then((out) => (out.byteLength <= bytes.byteLength * (1 - MIN_SAVING) ? out : null));
      // A failed compression is not kept: the next reader tries again (or gets the plain bytes).
      variant.catch(() => variants.delete(encoding));
      variants.set(encoding, variant);
    }
    return variant;
  };
  return { bytes, etag, encoded };
}
