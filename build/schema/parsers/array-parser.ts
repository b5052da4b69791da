/**
 * @module array-parser
 * `number[]`, `Integer[]`, `string[]`, `boolean[]` (also `Array<T>`, `readonly T[]`, and
 * arrays of colours, literal unions or fixed tuples such as `[number, number, number][]`, a
 * list of points) → `{"type":"array","items":{...}}`. Item counts come
 * from the `@minItems`/`@maxItems` doc tags (generate-schema adds them).
 */
import { Node, type TypeNode } from 'ts-morph';
import { elementSchema } from '../element-schema.ts';
import type { ParamParser } from '../param-parser.ts';
import { arrayFragment } from '../schema-object.ts';
import { single, unwrapParens } from '../type-queries.ts';

/** The written element annotation of `T[]`, `readonly T[]`, `Array<T>` or `ReadonlyArray<T>`. */
function elementNode(node: TypeNode | undefined): TypeNode | undefined {
  let typeNode = unwrapParens(node);
  if (typeNode && Node.isTypeOperatorTypeNode(typeNode)) typeNode = unwrapParens(typeNode.getTypeNode());
  if (typeNode && Node.isArrayTypeNode(typeNode)) return typeNode.getElementTypeNode();
  if (typeNode && Node.isTypeReference(typeNode) && /^(Readonly)?Array$/.test(typeNode.getTypeName().getText())) return typeNode.getTypeArguments()[0];
  return undefined;
}

export const arrayParser: ParamParser = {
  name: 'array',
  supports(param) {
    const type = single(param.members);
    return type !== undefined && !type.isTuple() && (type.isArray() || type.isReadonlyArray());
  },
  toSchema(param, chain) {
    const type = single(param.members)!;
    const element = type.getArrayElementType() ?? type.getTypeArguments()[0]!;
    const items = elementSchema(param, element, elementNode(param.typeNode), chain, 'an element', true);
    return { kind: 'value', schema: arrayFragment(items), optional: param.optional };
  },
};
