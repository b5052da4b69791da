/**
 * @module formats
 * The format registry: (result type, format) → its encoder. The one list below is where a
 * format is added; a format named in delivery-options.ts but not listed here answers 400
 * SPC_ERR_DELIVERY_FORMAT_UNAVAILABLE.
 *
 * The default formats are envelopes for meshes and volumes, the JSON typed result for point
 * clouds and images: the same bytes as an undelivered answer, so a compressed variant
 * decompresses to exactly what an identity client reads.
 */
import { encodeMeshEnvelope } from '../envelope/encode-envelope.ts';
import { createHostError } from '../errors.ts';
import { encodeStoredVolume } from '../results/volume-envelope.ts';
import { toJsonResult } from '../results/to-json-result.ts';
import type { ResultType } from '../sdk/result-types.ts';
import { defaultFormat } from './delivery-options.ts';
import type { FormatEncoder } from './format-encoder.ts';
import { FILE_ENCODERS } from './file-encoders.ts';

/** The envelope of one result type (`encode` gives nothing for a result of another type). */
function envelopeEncoder(type: 'mesh' | 'volume', encode: FormatEncoder['encode']): FormatEncoder {
  return { type, format: 'envelope', extension: 'bin', mediaType: (names) => names.envelopeMediaType, encode };
}

function jsonEncoder(type: 'point_cloud' | 'image'): FormatEncoder {
  return {
    type,
    format: 'json',
    extension: 'json',
    mediaType: () => 'application/json; charset=utf-8',
    encode: (result) => [Buffer.from(toJsonResult(result), 'utf8')],
  };
}

/** Every encoder the host knows. Add new formats here. */
const FORMAT_ENCODERS: readonly FormatEncoder[] = [
  envelopeEncoder('mesh', (result) => (result.type === 'mesh' ? encodeMeshEnvelope(result).parts : [])),
  envelopeEncoder('volume', (result) => (result.type === 'volume' ? encodeStoredVolume(result).parts : [])),
  jsonEncoder('point_cloud'),
  jsonEncoder('image'),
  ...FILE_ENCODERS,
];

const BY_KEY = new Map(FORMAT_ENCODERS.map((encoder) => [`${encoder.type}/${encoder.format}`, encoder]));

/** The encoder of `format` (default: the type's own) for results of `type`; 400 when none is registered. */
export function formatEncoder(type: ResultType, format: string = defaultFormat(type)): FormatEncoder {
  const encoder = BY_KEY.get(`${type}/${format}`);
  if (!encoder) throw createHostError('SPC_ERR_DELIVERY_FORMAT_UNAVAILABLE', format, type);
  return encoder;
}

/** True when an encoder of `format` is registered for `type`. */
export function hasFormat(type: ResultType, format: string): boolean {
  return BY_KEY.has(`${type}/${format}`);
}
