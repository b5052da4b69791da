/**
 * @module string-enum-parser
 * A union of string literals (`'fast' | 'fine'`) → `{"enum":["fast","fine"]}`, in the order
 * written when there is an annotation (the checker may reorder union members).
 */
import { Node, type Type } from 'ts-morph';
import type { ParamInput, ParamParser } from '../param-parser.ts';
import { unwrapParens } from '../type-queries.ts';

function isPlainStringLiteral(member: Type): boolean {
  return member.isStringLiteral() && !member.isEnumLiteral();
}

/** The literal values in written order when the annotation spells them out, else checker order. */
function literalValues(param: ParamInput): string[] {
  const fromChecker = param.members.map((member) => String(member.getLiteralValue()));
  const node = unwrapParens(param.typeNode);
  if (node && Node.isUnionTypeNode(node)) {
    const written: string[] = [];
    for (const member of node.getTypeNodes()) {
      const literal = Node.isLiteralTypeNode(member) ? member.getLiteral() : undefined;
      if (literal && Node.isStringLiteral(literal)) written.push(literal.getLiteralValue());
    }
    const sameSet = written.length === fromChecker.length && written.every((value) => fromChecker.includes(value));
    if (sameSet) return written;
  }
  return fromChecker;
}

export const stringEnumParser: ParamParser = {
  name: 'string-enum',
  supports: (param) => param.members.length > 0 && param.members.every(isPlainStringLiteral),
  toSchema: (param) => ({ kind: 'value', schema: { enum: literalValues(param) }, optional: param.optional }),
};
