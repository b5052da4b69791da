/**
 * @module string-parser
 * `string` → `{"type":"string"}`.
 */
import type { ParamParser } from '../param-parser.ts';
import { single } from '../type-queries.ts';
import { scalarFragment } from '../schema-object.ts';

export const stringParser: ParamParser = {
  name: 'string',
  supports: (param) => single(param.members)?.isString() === true,
  toSchema: (param) => ({ kind: 'value', schema: scalarFragment('string'), optional: param.optional }),
};
