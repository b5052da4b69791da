/**
 * @module blob-ids
 * Blob ids: the name of one exact byte sequence a host sends for a result, served forever at
 * `/api/blobs/{blob_id}` (cacheable by anyone, since the same id is always the same bytes).
 * A blob is a result seen through one delivery: its format, its shaping options, its
 * Content-Encoding and (for downloads) its file name. Deliveries are deterministic, so an id
 * names those rather than hashing the bytes: the result's own id when the bytes are its
 * default form (the envelope of a mesh or volume, the JSON typed result of a point cloud or
 * image, uncompressed), else the result id, a dot, and the delivery written out in base64url.
 * Any host that can find the result (its own, or its service's blob store) can serve any id,
 * with nothing shared but the result; an id that does not read back exactly is no blob.
 */
import type { ResultType } from '../sdk/result-types.ts';
import { isResultId } from '../results/result-id.ts';
import type { ContentEncoding } from './content-encoding.ts';
import { defaultFormat, deliveredType, deliveryKey, FORMATS_BY_TYPE, isEmptyDelivery, type DeliveryOptions } from './delivery-options.ts';
import { TYPED_JSON } from './pack-delivery.ts';
import { parseDeliveryQuery } from './parse-delivery.ts';

/** The response header naming the blob an answer's bytes are. */
export const BLOB_ID_HEADER = 'x-blob-id';

/** What a blob is: enough to make its bytes again from its result. */
export interface BlobDescriptor {
  /** The result id. */
  result: string;
  /** The format (a delivery format, or the JSON typed result of /invoke and /result). */
  format: string;
  /** The shaping and format options, without `format`. */
  options: DeliveryOptions;
  encoding: ContentEncoding | null;
  /** The download's base name (formats other than the default), else ''. */
  baseName: string;
}

const ENCODINGS: readonly (ContentEncoding | null)[] = [null, 'gzip', 'br'];

/** The blob id of what a host sends for a result of type `type`. */
export function blobIdOf(d: BlobDescriptor, type: ResultType): string {
  // The format in its one spelling: the default form of a JSON type is `json`.
  const format = d.format === TYPED_JSON && defaultFormat(type) === 'json' ? 'json' : d.format;
  if (format === defaultFormat(type) && d.encoding === null && isEmptyDelivery(d.options)) return d.result;
  const options = deliveryKey({ ...d.options, format: undefined });
  const baseName = format === defaultFormat(type) || format === TYPED_JSON ? '' : d.baseName;
  const text = JSON.stringify([format, options, d.encoding, baseName]);
  return `${d.result}.${Buffer.from(text, 'utf8').toString('base64url')}`;
}

/**
 * What blob id `id` says, read without knowing its result (null: it says nothing readable).
 * The result id alone reads as the default form (`format` empty). Whether it is a blob of a
 * given result is {@link blobOfType}'s to say.
 */
export function readBlobId(id: string): BlobDescriptor | null {
  const dot = id.indexOf('.');
  const result = dot === -1 ? id : id.slice(0, dot);
  if (!isResultId(result)) return null;
  if (dot === -1) return { result, format: '', options: {}, encoding: null, baseName: '' };
  try {
    const [format, options, encoding, baseName] = JSON.parse(Buffer.from(id.slice(dot + 1), 'base64url').toString('utf8')) as unknown[];
    if (typeof format !== 'string' || typeof options !== 'string' || typeof baseName !== 'string') return null;
    if (!ENCODINGS.includes(encoding as ContentEncoding | null)) return null;
    const parsed = parseDeliveryQuery(Object.fromEntries(new URLSearchParams(options)));
    if (parsed.format !== undefined) return null;
    return { result, format, options: parsed, encoding: encoding as ContentEncoding | null, baseName };
  } catch {
    return null;
  }
}

/**
 * The descriptor completed for a result of type `type` (the default form filled in), or null
 * when `id` is no blob of such a result: a format the type lacks, or an id not written the way
 * this module writes it (one byte sequence has one id).
 */
export function blobOfType(id: string, d: BlobDescriptor, type: ResultType): BlobDescriptor | null {
  const format = d.format === '' ? defaultFormat(type) : d.format;
  if (format !== TYPED_JSON && !FORMATS_BY_TYPE[deliveredType(type, d.options)].includes(format)) return null;
  const full = { ...d, format };
  return blobIdOf(full, type) === id ? full : null;
}
