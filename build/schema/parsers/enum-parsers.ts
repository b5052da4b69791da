/**
 * @module enum-parsers
 * A union of string literals (`'fast' | 'fine'`) → `{"enum":["fast","fine"]}`, or of number
 * literals (`1 | 2 | 4`) → `{"enum":[1,2,4]}`, in the order written when there is an
 * annotation (the checker may reorder union members). A single literal (`2`) is a one-value enum.
 */
import { Node, type Type } from 'ts-morph';
import type { ParamInput, ParamParser } from '../param-parser.ts';
import { enumFragment } from '../schema-object.ts';
import { unwrapParens } from '../type-queries.ts';

function literalValues<T extends string | number>(param: ParamInput, read: (value: unknown) => T): T[] {
  const fromChecker = param.members.map((member) => read(member.getLiteralValue()));
  const node = unwrapParens(param.typeNode);
  if (node && Node.isUnionTypeNode(node)) {
    const written = node.getTypeNodes().map((member) => read(member.getType().getLiteralValue()));
    const sameSet = written.length === fromChecker.length && written.every((value) => fromChecker.includes(value));
    if (sameSet) return written;
  }
  return fromChecker;
}

/** The parser of a union whose every member is a literal `isLiteral` takes (no enum member), read with `read`. */
function enumParser(name: string, isLiteral: (member: Type) => boolean, read: (value: unknown) => string | number): ParamParser {
  return {
    name,
    supports: (param) => param.members.length > 0 && param.members.every((member) => isLiteral(member) && !member.isEnumLiteral()),
    toSchema: (param) => ({ kind: 'value', schema: enumFragment(literalValues(param, read)), optional: param.optional }),
  };
}

export const stringEnumParser = enumParser('string-enum', (member) => member.isStringLiteral(), String);
export const numberEnumParser = enumParser('number-enum', (member) => member.isNumberLiteral(), Number);
