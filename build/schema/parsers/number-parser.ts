/**
 * @module number-parser
 * `number` → `{"type":"number"}`. Number literal types are not numbers here (unsupported).
 */
import type { ParamParser } from '../param-parser.ts';
import { single } from '../type-queries.ts';
import { scalarFragment } from '../schema-object.ts';

export const numberParser: ParamParser = {
  name: 'number',
  supports: (param) => single(param.members)?.isNumber() === true,
  toSchema: (param) => ({ kind: 'value', schema: scalarFragment('number'), optional: param.optional }),
};
