/**
 * @module read-data-response
 * Reads a `/api/specimens/{id}/data` answer by its content type: a binary envelope (mesh and
 * volume, a step of a volume with time or channels saying which one in `step`; the media type is `application/x-<vendor>-envelope-v1`, configurable on the
 * host)
 * is decoded to typed arrays, typed result JSON (point clouds and images) likewise, and
 * anything else is a static data file returned as bytes.
 */
import { decodeEnvelope } from '../envelope/decode-envelope.ts';
import type { DecodedEnvelope } from '../envelope/decode-envelope.ts';
import type { FileData, SpecimenData, TypedData } from '../wire/decoded-types.ts';
import { decodeTypedResult, readAxesInfo } from './decode-typed-result.ts';

/** Any vendor's v1 envelope media type (the host's `--envelope-media-type` may rename it). */
const ENVELOPE_TYPE = /^application\/x-[\w.+-]+-envelope-v1\b/i;

/** True for an envelope content type. */
export function isEnvelopeType(contentType: string): boolean {
  return ENVELOPE_TYPE.test(contentType.trim());
}

/** Drops the decoder's raw `preamble` so envelope and JSON results have the same shape. */
export function fromEnvelope(decoded: DecodedEnvelope): TypedData {
  if (decoded.type === 'mesh') {
    const { vertices, indices, normals, colors } = decoded;
    return colors ? { type: 'mesh', vertices, indices, normals, colors } : { type: 'mesh', vertices, indices, normals };
  }
  const { shape, dtype, data, spacing, origin, value_range, labels, label_names, label_colors } = decoded;
  const volume: TypedData = { type: 'volume', shape, dtype, data, spacing, origin, value_range, ...readAxesInfo(decoded.preamble) };
  return labels ? { ...volume, labels, ...(label_names ? { label_names } : {}), ...(label_colors ? { label_colors } : {}) } : volume;
}

/** The file name from `Content-Disposition`, else the URL's last path segment. */
function fileNameOf(response: Response): string {
  const disposition = response.headers.get('content-disposition') ?? '';
  const star = /filename\*\s*=\s*(?:UTF-8'')?([^;]+)/i.exec(disposition);
  if (star?.[1]) return decodeURIComponent(star[1].trim().replace(/^"|"$/g, ''));
  const plain = /filename\s*=\s*"?([^";]+)"?/i.exec(disposition);
  if (plain?.[1]) return plain[1].trim();
  try {
    return decodeURIComponent(new URL(response.url).pathname.split('/').pop() ?? '');
  } catch {
    return '';
  }
}

/**
 * Decodes a successful `/data` response.
 * @param envelopeMediaType An extra media type to treat as an envelope (besides the v1 pattern).
 */
export async function readDataResponse(response: Response, envelopeMediaType?: string): Promise<SpecimenData> {
  const contentType = (response.headers.get('content-type') ?? '').toLowerCase();
  const mediaType = contentType.split(';')[0]!.trim();
  if (isEnvelopeType(mediaType) || (envelopeMediaType && mediaType === envelopeMediaType.toLowerCase())) {
    return fromEnvelope(decodeEnvelope(await response.arrayBuffer()));
  }
  if (mediaType === 'application/json' && !response.headers.get('content-disposition')) {
    return decodeTypedResult(await response.json());
  }
  const file: FileData = {
    type: 'file',
    bytes: new Uint8Array(await response.arrayBuffer()),
    contentType: mediaType || 'application/octet-stream',
    fileName: fileNameOf(response),
  };
  return file;
}
