/**
 * @module check-delivery
 * Checks parsed delivery options against the type of the result they would shape: an option
 * or format that does not fit the type, or `compress` or `normals` without the format it applies to, is a
 * catalogued 400 naming it. Runs before anything is computed.
 */
import { createHostError } from '../errors.ts';
import type { ResultType } from '../sdk/result-types.ts';
import { COMPRESS_FORMATS, DELIVERY_OPTION_NAMES, deliveredType, FORMATS_BY_TYPE, OPTION_TYPES, type DeliveryOptions } from './delivery-options.ts';

const TYPE_WORDS: Record<ResultType, string> = { mesh: 'a mesh', volume: 'a volume', point_cloud: 'a point cloud', image: 'an image' };

/** True for the four result types (a static specimen may declare another type). */
export function isResultType(type: string): type is ResultType {
  return Object.hasOwn(FORMATS_BY_TYPE, type);
}

/**
 * Throws SPC_ERR_DELIVERY_OPTION_MISFIT (400) unless every option fits a result of `type`.
 * With `segment` (a volume's label surface) the other options are those of the mesh it sends.
 */
export function checkDeliveryFits(options: DeliveryOptions, resultType: string): void {
  if (options.segment !== undefined && resultType !== 'volume') {
    const what = isResultType(resultType) ? TYPE_WORDS[resultType] : `a specimen of type '${resultType}'`;
    throw createHostError('SPC_ERR_DELIVERY_OPTION_MISFIT', 'segment', `it asks for a label's surface, and ${what} has no labels`);
  }
  const type = isResultType(resultType) ? deliveredType(resultType, options) : resultType;
  const surface = options.segment !== undefined ? ' (the surface segment= sends)' : '';
  for (const name of DELIVERY_OPTION_NAMES) {
    if (options[name] === undefined || name === 'segment') continue;
    if (!isResultType(type)) throw createHostError('SPC_ERR_DELIVERY_OPTION_MISFIT', name, `specimens of type '${type}' take no delivery options`);
    if (!OPTION_TYPES[name].includes(type)) {
      throw createHostError('SPC_ERR_DELIVERY_OPTION_MISFIT', name, `it does not apply to ${TYPE_WORDS[type]}${surface}`);
    }
  }
  if (!isResultType(type)) return;
  if (options.format !== undefined && !FORMATS_BY_TYPE[type].includes(options.format)) {
    throw createHostError(
      'SPC_ERR_DELIVERY_OPTION_MISFIT',
      'format',
      `'${options.format}' is not a format of ${TYPE_WORDS[type]} (${FORMATS_BY_TYPE[type].join(', ')})`,
    );
  }
  if (options.compress !== undefined && options.format !== COMPRESS_FORMATS[options.compress]) {
    throw createHostError('SPC_ERR_DELIVERY_OPTION_MISFIT', 'compress', `compress=${options.compress} needs format=${COMPRESS_FORMATS[options.compress]}`);
  }
  if (options.normals !== undefined && options.format !== 'obj') {
    throw createHostError('SPC_ERR_DELIVERY_OPTION_MISFIT', 'normals', 'normals=false needs format=obj (the other formats keep a mesh whole)');
  }
}
