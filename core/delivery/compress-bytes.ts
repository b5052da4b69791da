/**
 * @module compress-bytes
 * Deterministic compression of a delivery's bytes: fixed levels and no timestamps, so every
 * host of a service makes the same variant byte for byte. Runs on the encode worker thread.
 * A variant that saves under a tenth of the bytes is not worth a client's decompression.
 */
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import type { ContentEncoding } from './content-encoding.ts';

/** Compression must save at least this share of the bytes to be used. */
export const MIN_SAVING = 0.1;

/**
 * The compressed bytes, or null when they save under MIN_SAVING. gzip level 6 (zlib's default);
 * Brotli quality 5, a good ratio at a speed fit for 100 MB volumes.
 */
export function compressIfWorth(bytes: Uint8Array, encoding: ContentEncoding): Buffer | null {
  const params = { [constants.BROTLI_PARAM_QUALITY]: 5, [constants.BROTLI_PARAM_SIZE_HINT]: bytes.byteLength };
  const compressed = encoding === 'gzip' ? gzipSync(bytes, { level: 6 }) : brotliCompressSync(bytes, { params });
  return compressed.byteLength <= bytes.byteLength * (1 - MIN_SAVING) ? compressed : null;
}
