/**
 * @module optional-parser
 * `T | undefined` (also what `x?: T` becomes under strictNullChecks): removes `undefined`,
 * marks the parameter optional, and hands the rest back to the chain.
 */
import { Node, SyntaxKind, type TypeNode } from 'ts-morph';
import type { ParamParser } from '../param-parser.ts';
import { unwrapParens } from '../type-queries.ts';

/** The annotation without its `undefined` members (undefined when several remain). */
function stripUndefinedNode(node: TypeNode | undefined): TypeNode | undefined {
  const typeNode = unwrapParens(node);
  if (!typeNode || !Node.isUnionTypeNode(typeNode)) return typeNode;
  const rest = typeNode.getTypeNodes().filter((member) => member.getKind() !== SyntaxKind.UndefinedKeyword);
  return rest.length === 1 ? rest[0] : typeNode;
}

export const optionalParser: ParamParser = {
  name: 'optional',
  supports: (param) => param.members.length > 1 && param.members.some((member) => member.isUndefined()),
  toSchema(param, chain) {
    const parsed = chain.parse({
      ...param,
      members: param.members.filter((member) => !member.isUndefined()),
      typeNode: stripUndefinedNode(param.typeNode),
      optional: true,
    });
    return { ...parsed, optional: true };
  },
};
