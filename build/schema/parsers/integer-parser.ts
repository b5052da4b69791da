/**
 * @module integer-parser
 * The `Integer` marker from 'vitrine' → `{"type":"integer"}`. Recognised by its annotation,
 * since the type is plain `number`; must precede the number parser.
 */
import type { ParamParser } from '../param-parser.ts';
import { namesSdkInteger, single } from '../type-queries.ts';

export const integerParser: ParamParser = {
  name: 'integer',
  supports(param) {
    const type = single(param.members);
    return type !== undefined && type.isNumber() && namesSdkInteger(param.typeNode);
  },
  toSchema: (param) => ({ kind: 'value', schema: { type: 'integer' }, optional: param.optional }),
};
