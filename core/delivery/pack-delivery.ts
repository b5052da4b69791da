/**
 * @module pack-delivery
 * The bytes of one delivery variant: a result encoded in a format (or as the JSON typed
 * result of /invoke and /result), then compressed when asked and worth it; or a static
 * file's bytes compressed. Runs on the encode worker thread. A writer stopped at the delivery's
 * bound answers how far it got instead of bytes.
 *
 * Compression is deterministic: fixed levels and no timestamps, so every host of a service
 * makes the same variant byte for byte. A variant that saves under a tenth of the bytes is not
 * worth a client's decompression.
 */
import { readFile } from 'node:fs/promises';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { OutputTooLarge } from '../formats/format-error.ts';
import { toJsonResult } from '../results/to-json-result.ts';
import type { StoredResult } from '../results/stored-result.ts';
import type { ContentEncoding } from './content-encoding.ts';
import type { DeliveryOptions } from './delivery-options.ts';
import type { EncodeNames } from './format-encoder.ts';
import { formatEncoder } from './formats.ts';

/** Compression must save at least this share of the bytes to be used. */
const MIN_SAVING = 0.1;

/**
 * The compressed bytes, or null when they save under MIN_SAVING. gzip level 6 (zlib's default);
 * Brotli quality 5, a good ratio at a speed fit for 100 MB volumes.
 */
function compressIfWorth(bytes: Uint8Array, encoding: ContentEncoding): Buffer | null {
  const compressed =
    encoding === 'gzip'
      ? gzipSync(bytes, { level: 6 })
      : brotliCompressSync(bytes, { params: { [constants.BROTLI_PARAM_QUALITY]: 5, [constants.BROTLI_PARAM_SIZE_HINT]: bytes.byteLength } });
  return compressed.byteLength <= bytes.byteLength * (1 - MIN_SAVING) ? compressed : null;
}

/** The pseudo-format of /invoke and /result answers: the JSON typed result of any type. */
export const TYPED_JSON = 'typed-json';

export interface PackedBytes {
  bytes: Uint8Array;
  /** null: identity bytes (none asked, or compression saved too little). */
  encoding: ContentEncoding | null;
  /** Set when the format's writer stopped past the delivery's bound: how far it had got (no bytes then). */
  over?: number;
}

function concat(parts: Uint8Array[]): Uint8Array {
  if (parts.length === 1) return parts[0]!;
  return Buffer.concat(parts);
}

const NOTHING = new Uint8Array(0);

/** Compressed when asked and worth it; else the identity bytes, or none when not needed. */
function compressed(identity: Uint8Array, encoding: ContentEncoding | null, identityNeeded: boolean): PackedBytes {
  const bytes = encoding ? compressIfWorth(identity, encoding) : null;
  if (bytes) return { bytes, encoding };
  return { bytes: identityNeeded ? identity : NOTHING, encoding: null };
}

/** A result (already shaped) to encode in `format`, compressed with `encoding` when worth it. */
export interface PackAsk {
  result: StoredResult;
  format: string;
  options: DeliveryOptions;
  names: EncodeNames;
  encoding: ContentEncoding | null;
  /** False: when compression is not worth it, answer no bytes (the host sends identity itself). */
  identityNeeded: boolean;
}

export async function packResult({ result, format, options, names, encoding, identityNeeded }: PackAsk): Promise<PackedBytes> {
  let parts: Uint8Array[];
  try {
    parts = format === TYPED_JSON ? [Buffer.from(toJsonResult(result), 'utf8')] : await formatEncoder(result.type, format).encode(result, options, names);
  } catch (error) {
    // Stopped at the bound: what it made so far is let go, and the host answers 413.
    if (error instanceof OutputTooLarge) return { bytes: NOTHING, encoding: null, over: error.bytes };
    throw error;
  }
  return compressed(concat(parts), encoding, identityNeeded);
}

export async function packFile(path: string, encoding: ContentEncoding): Promise<PackedBytes> {
  return compressed(await readFile(path), encoding, false);
}
