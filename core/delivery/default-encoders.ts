/**
 * @module default-encoders
 * The default formats: envelopes for meshes and volumes, the JSON typed result for point
 * clouds and images. The same bytes as an undelivered answer, so a compressed variant
 * decompresses to exactly what an identity client reads.
 */
import { encodeMeshEnvelope } from '../envelope/encode-envelope.ts';
import { encodeStoredVolume } from '../results/volume-envelope.ts';
import { toJsonResult } from '../results/to-json-result.ts';
import type { FormatEncoder } from './format-encoder.ts';

/** The envelope of one result type (`encode` gives nothing for a result of another type). */
function envelopeEncoder(type: 'mesh' | 'volume', encode: FormatEncoder['encode']): FormatEncoder {
  return { type, format: 'envelope', extension: 'bin', mediaType: (names) => names.envelopeMediaType, encode };
}

export const meshEnvelopeEncoder = envelopeEncoder('mesh', (result) => (result.type === 'mesh' ? encodeMeshEnvelope(result).parts : []));
export const volumeEnvelopeEncoder = envelopeEncoder('volume', (result) => (result.type === 'volume' ? encodeStoredVolume(result).parts : []));

function jsonEncoder(type: 'point_cloud' | 'image'): FormatEncoder {
  return {
    type,
    format: 'json',
    extension: 'json',
    mediaType: () => 'application/json; charset=utf-8',
    encode: (result) => [Buffer.from(toJsonResult(result), 'utf8')],
  };
}

export const pointCloudJsonEncoder = jsonEncoder('point_cloud');
export const imageJsonEncoder = jsonEncoder('image');
