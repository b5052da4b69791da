/**
 * @module number-enum-parser
 * A union of number literals (`1 | 2 | 4`) → `{"enum":[1,2,4]}`, in the order written when
 * there is an annotation. A single literal (`2`) is a one-value enum.
 */
import type { Type } from 'ts-morph';
import type { ParamParser } from '../param-parser.ts';
import { literalValues } from '../literal-values.ts';
import { enumFragment } from '../schema-object.ts';

function isPlainNumberLiteral(member: Type): boolean {
  return member.isNumberLiteral() && !member.isEnumLiteral();
}

export const numberEnumParser: ParamParser = {
  name: 'number-enum',
  supports: (param) => param.members.length > 0 && param.members.every(isPlainNumberLiteral),
  toSchema: (param) => ({ kind: 'value', schema: enumFragment(literalValues(param, Number)), optional: param.optional }),
};
