/**
 * @module delivery-openapi
 * The delivery options of /data as OpenAPI: query parameters of GET, the `delivery` object of
 * POST, each option saying the result types it fits (one /data path serves every type).
 */
import type { ResultType } from '../sdk/result-types.ts';
import { COMPRESS_FORMATS, DELIVERY_DTYPES, DELIVERY_OPTION_NAMES, FORMATS_BY_TYPE, OPTION_TYPES, type DeliveryOptionName } from './delivery-options.ts';

function optionSchema(name: DeliveryOptionName, type: ResultType): Record<string, unknown> {
  switch (name) {
    case 'format':
      return { enum: FORMATS_BY_TYPE[type], description: 'How the result travels (the first is the default)' };
    case 'compress':
      return { enum: Object.keys(COMPRESS_FORMATS), description: 'With format=glb: EXT_meshopt_compression' };
    case 'normals':
      return { enum: ['true', 'false'], description: 'With format=obj: false leaves the normals out (plain f a b c faces, as Neuroglancer reads)' };
    case 'max_triangles':
      return { type: 'integer', minimum: 1, description: 'At most this many triangles (simplified)' };
    case 'dtype':
      return { enum: DELIVERY_DTYPES, description: 'Delivered element type; integer types map the window onto 0..2^bits-1' };
    case 'window':
      return { type: 'string', pattern: '^[^,]+,[^,]+$', description: 'LO,HI: the value range mapped by dtype (default: the data own range)' };
    case 'max_dim':
      return { type: 'integer', minimum: 1, description: 'Every axis at most this many samples (block averaging; labels pick ids)' };
    case 'segment':
      return {
        anyOf: [{ type: 'integer', minimum: 1 }, { const: 'all' }],
        description: 'A labels volume: the surface of this label id (or of every label: all) as a mesh, shaped and encoded by the mesh options',
      };
    case 't':
      return { type: 'integer', minimum: 0, description: 'A volume with a time axis: the step delivered (default 0)' };
    case 'c':
      return {
        type: 'string',
        pattern: '^(\\d+|magnitude|rgb)$',
        description: 'A volume with channels: the channel delivered (default 0); a vector field also magnitude (float32) or rgb (uint8, last axis 3)',
      };
  }
}

/** Every delivery option as GET /data query parameters, for a path serving results of any type. */
export function anyTypeDeliveryParameters(): Record<string, unknown>[] {
  const types = Object.keys(FORMATS_BY_TYPE) as ResultType[];
  return DELIVERY_OPTION_NAMES.map((name) => {
    const fits = OPTION_TYPES[name];
    if (name !== 'format') return { name, in: 'query', schema: optionSchema(name, fits[0]!), description: `For ${fits.join(', ').replace('_', ' ')} results` };
    const all = [...new Set(types.flatMap((type) => FORMATS_BY_TYPE[type]))];
    const perType = types.map((type) => `${type.replace('_', ' ')}: ${FORMATS_BY_TYPE[type].join(', ')}`).join('; ');
    return { name, in: 'query', schema: { enum: all }, description: `How the result travels; per type (the first is the default): ${perType}` };
  });
}

/** The `delivery` member of a POST /data body for a path serving results of any type. */
export function anyTypeDeliveryBody(): Record<string, unknown> {
  const properties = Object.fromEntries(
    anyTypeDeliveryParameters().map((p) => [p['name'] as string, { ...(p['schema'] as object), description: p['description'] }]),
  );
  return {
    type: 'object',
    additionalProperties: false,
    properties,
    description: 'How the result travels (never part of the cache key); options must fit the result type',
  };
}
