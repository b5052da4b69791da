/**
 * @module color-parser
 * The `Color` marker from 'vitrine' → `{"type":"string","format":"color","pattern":...}`.
 * Recognised by its annotation, since the type is plain `string`; must precede the string parser.
 */
import { colorSchema } from '../../../core/params/param-vocabulary.ts';
import type { ParamParser } from '../param-parser.ts';
import { namesSdkAlias, single } from '../type-queries.ts';

export const colorParser: ParamParser = {
  name: 'color',
  supports(param) {
    const type = single(param.members);
    return type !== undefined && type.isString() && namesSdkAlias(param.typeNode, 'Color');
  },
  toSchema: (param) => ({ kind: 'value', schema: colorSchema(), optional: param.optional }),
};
