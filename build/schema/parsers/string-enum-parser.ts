/**
 * @module string-enum-parser
 * A union of string literals (`'fast' | 'fine'`) → `{"enum":["fast","fine"]}`, in the order
 * written when there is an annotation.
 */
import type { Type } from 'ts-morph';
import type { ParamParser } from '../param-parser.ts';
import { literalValues } from '../literal-values.ts';
import { enumFragment } from '../schema-object.ts';

function isPlainStringLiteral(member: Type): boolean {
  return member.isStringLiteral() && !member.isEnumLiteral();
}

export const stringEnumParser: ParamParser = {
  name: 'string-enum',
  supports: (param) => param.members.length > 0 && param.members.every(isPlainStringLiteral),
  toSchema: (param) => ({ kind: 'value', schema: enumFragment(literalValues(param, String)), optional: param.optional }),
};
