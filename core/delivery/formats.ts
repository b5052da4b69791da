/**
 * @module formats
 * The format registry: (result type, format) → its encoder. The one list below is where a
 * format is added; a format named in delivery-options.ts but not listed here answers 400
 * SPC_ERR_DELIVERY_FORMAT_UNAVAILABLE.
 */
import { createHostError } from '../errors.ts';
import type { ResultType } from '../sdk/result-types.ts';
import { defaultFormat } from './delivery-options.ts';
import { imageJsonEncoder, meshEnvelopeEncoder, pointCloudJsonEncoder, volumeEnvelopeEncoder } from './default-encoders.ts';
import type { FormatEncoder } from './format-encoder.ts';
import { FILE_ENCODERS } from './file-encoders.ts';

/** Every encoder the host knows. Add new formats here. */
const FORMAT_ENCODERS: readonly FormatEncoder[] = [meshEnvelopeEncoder, volumeEnvelopeEncoder, pointCloudJsonEncoder, imageJsonEncoder, ...FILE_ENCODERS];

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
