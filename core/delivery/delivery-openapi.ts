/**
 * @module delivery-openapi
 * The delivery options of /data as OpenAPI: query parameters of GET, the `delivery` object of
 * POST, limited to the options that fit the result type.
 */
import type { ResultType } from '../sdk/result-types.ts';
import { COMPRESS_FORMATS, DELIVERY_DTYPES, DELIVERY_OPTION_NAMES, FORMATS_BY_TYPE, OPTION_TYPES, type DeliveryOptionName } from './delivery-options.ts';

function optionSchema(name: DeliveryOptionName, type: ResultType): Record<string, unknown> {
  switch (name) {
    case 'format':
      return { enum: FORMATS_BY_TYPE[type], description: 'How the result travels (the first is the default)' };
    case 'compress':
      return { enum: Object.keys(COMPRESS_FORMATS), description: 'With format=glb: EXT_meshopt_compression' };
    case 'max_triangles':
      return { type: 'integer', minimum: 1, description: 'At most this many triangles (simplified)' };
    case 'dtype':
      return { enum: DELIVERY_DTYPES, description: 'Delivered element type; integer types map the window onto 0..2^bits-1' };
    case 'window':
      return { type: 'string', pattern: '^[^,]+,[^,]+$', description: 'LO,HI: the value range mapped by dtype (default: the data own range)' };
    case 'max_dim':
      return { type: 'integer', minimum: 1, description: 'Every axis at most this many samples (block averaging)' };
  }
}

function namesFor(type: ResultType): DeliveryOptionName[] {
  return DELIVERY_OPTION_NAMES.filter((name) => OPTION_TYPES[name].includes(type));
}

/** GET /data query parameters for a result of `type`. */
export function deliveryQueryParameters(type: ResultType): Record<string, unknown>[] {
  return namesFor(type).map((name) => ({ name, in: 'query', schema: optionSchema(name, type) }));
}

/** The `delivery` member of a POST /data body for a result of `type`. */
export function deliveryBodySchema(type: ResultType): Record<string, unknown> {
  const properties = Object.fromEntries(namesFor(type).map((name) => [name, optionSchema(name, type)]));
  return { type: 'object', additionalProperties: false, properties, description: 'How the result travels (never part of the cache key)' };
}
