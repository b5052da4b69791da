/**
 * @module literal-values
 * The values of a union of literal types, in the order the annotation writes them (the
 * checker may reorder union members), for the string and number enum parsers.
 */
import { Node } from 'ts-morph';
import type { ParamInput } from './param-parser.ts';
import { unwrapParens } from './type-queries.ts';

export function literalValues<T extends string | number>(param: ParamInput, read: (value: unknown) => T): T[] {
  const fromChecker = param.members.map((member) => read(member.getLiteralValue()));
  const node = unwrapParens(param.typeNode);
  if (node && Node.isUnionTypeNode(node)) {
    const written = node.getTypeNodes().map((member) => read(member.getType().getLiteralValue()));
    const sameSet = written.length === fromChecker.length && written.every((value) => fromChecker.includes(value));
    if (sameSet) return written;
  }
  return fromChecker;
}
