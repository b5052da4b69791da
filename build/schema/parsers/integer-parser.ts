/**
 * @module integer-parser
 * The `Integer` marker from 'vitrine' → `{"type":"integer"}`. Recognised by its annotation,
 * since the type is plain `number`; must precede the number parser.
 */
import type { ParamParser } from '../param-parser.ts';
import { namesSdkAlias, single } from '../type-queries.ts';
import { scalarFragment } from '../schema-object.ts';

export const integerParser: ParamParser = {
  name: 'integer',
  supports(param) {
    const type = single(param.members);
    return type !== undefined && type.isNumber() && namesSdkAlias(param.typeNode, 'Integer');
  },
  toSchema: (param) => ({ kind: 'value', schema: scalarFragment('integer'), optional: param.optional }),
};
