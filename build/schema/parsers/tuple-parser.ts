/**
 * @module tuple-parser
 * A fixed tuple of scalars (`[number, number, number]`, also with labels or `readonly`) →
 * `{"type":"array","prefixItems":[...],"items":false,"minItems":n,"maxItems":n}`.
 * Optional and rest elements are refused: the length must be fixed.
 */
import { Node, ts, type TypeNode } from 'ts-morph';
import { elementSchema } from '../element-schema.ts';
import type { ParamParser } from '../param-parser.ts';
import { SchemaError } from '../schema-error.ts';
import { tupleFragment } from '../schema-object.ts';
import { single, unwrapParens } from '../type-queries.ts';

/** The written element annotations, when the annotation is a tuple literal. */
function elementNodes(node: TypeNode | undefined): (TypeNode | undefined)[] | undefined {
  let typeNode = unwrapParens(node);
  if (typeNode && Node.isTypeOperatorTypeNode(typeNode)) typeNode = unwrapParens(typeNode.getTypeNode());
  if (!typeNode || !Node.isTupleTypeNode(typeNode)) return undefined;
  return typeNode.getElements().map((element) => (Node.isNamedTupleMember(element) ? element.getTypeNode() : element));
}

export const tupleParser: ParamParser = {
  name: 'tuple',
  supports: (param) => single(param.members)?.isTuple() === true,
  toSchema(param, chain) {
    const type = single(param.members)!;
    const flags = (type.compilerType as ts.TupleTypeReference).target.elementFlags;
    const nodes = elementNodes(param.typeNode);
    const elements = type.getTupleElements();
    const prefixItems = elements.map((element, index) => {
      const node = nodes?.[index];
      if (flags[index] !== ts.ElementFlags.Required) {
        const written = node?.getText() ?? element.getText();
        throw new SchemaError(
          'VITRINE_SCHEMA_100',
          node ?? param.typeNode ?? param.declaration,
          `parameter '${param.declaration.getName()}' has element ${index} \`${written}\`, which is optional or rest; every element of a tuple parameter ` +
          `must be present (use an array for a list of any length)`,
        );
      }
      return elementSchema(param, element, node, chain, `element ${index}`);
    });
    return { kind: 'value', schema: tupleFragment(prefixItems), optional: param.optional };
  },
};
