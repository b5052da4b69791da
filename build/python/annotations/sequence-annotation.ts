/**
 * @module sequence-annotation
 * `tuple[float, float, float]` → a fixed tuple (`prefixItems`), `list[float]` (also `List`,
 * `Tuple`) → an array of any length, with the fragments the TypeScript tuple and array parsers
 * build. Elements go through the same chain but must be scalars (float, int, str, bool, Color,
 * a Literal), or for a list also a fixed tuple of them (`list[tuple[float, float, float]]`, a
 * list of points); an element may carry its own `Annotated[..., Range(lo, hi)]`.
 */
import type { SchemaFragment } from '../../schema/param-parser.ts';
import { SchemaError } from '../../schema/schema-error.ts';
import { withBounds } from '../../schema/apply-constraints.ts';
import { isScalar, isScalarTuple } from '../../schema/element-schema.ts';
import { arrayFragment, tupleFragment } from '../../schema/schema-object.ts';
import { locationIn, subscriptArgs, typeExpression } from '../python-names.ts';
import type { PyExpr } from '../reader-output.ts';
import type { PyAnnotationChain, PyAnnotationInput, PyAnnotationParser } from './annotation-parser.ts';

const ELEMENT_TEXT = 'float, int, str, bool, Color or a Literal of strings or numbers';

function unsupportedElement(input: PyAnnotationInput, element: PyExpr, what: string): SchemaError {
  return new SchemaError(
    'VITRINE_SCHEMA_100',
    locationIn(input.scope, element),
    `parameter '${input.parameter}' has ${what} of type '${element.text}'; elements may be ${ELEMENT_TEXT}`,
  );
}

/** The schema of one element (`what` names it in messages: 'element 2', 'an element'; `tuples`: a list's element may be a tuple of scalars). */
function elementSchema(input: PyAnnotationInput, element: PyExpr, chain: PyAnnotationChain, what: string, tuples = false): SchemaFragment {
  let result;
  try {
    result = chain.parse({ ...input, expr: element, optional: false });
  } catch (error) {
    if (error instanceof SchemaError && error.code === 'VITRINE_SCHEMA_100') throw unsupportedElement(input, element, what);
    throw error;
  }
  const { parsed, bounds, counts } = result;
  if (parsed.kind !== 'value' || parsed.optional || counts || !(isScalar(parsed.schema) || (tuples && isScalarTuple(parsed.schema)))) {
    throw unsupportedElement(input, element, what);
  }
  return bounds ? withBounds(parsed.schema, bounds) : parsed.schema;
}

export const tupleAnnotation: PyAnnotationParser = (input, chain) => {
  const args = subscriptArgs(input.expr, input.scope, 'tuple', 'Tuple');
  if (!args) return undefined;
  const empty = args.length === 1 && typeExpression(args[0]!).kind === 'sequence';
  const open = args.findIndex((arg) => arg.kind === 'ellipsis');
  if (empty || open >= 0) {
    const why = empty ? 'is empty' : `ends in \`...\` (any length)`;
    throw new SchemaError(
      'VITRINE_SCHEMA_100',
      locationIn(input.scope, input.expr),
      `parameter '${input.parameter}' has annotation '${input.expr.text}', which ${why}; a tuple parameter writes every element (use list[...] for a ` +
      `list of any length)`,
    );
  }
  const prefixItems = args.map((arg, index) => elementSchema(input, arg, chain, `element ${index}`));
  return { parsed: { kind: 'value', schema: tupleFragment(prefixItems), optional: input.optional } };
};

export const listAnnotation: PyAnnotationParser = (input, chain) => {
  const args = subscriptArgs(input.expr, input.scope, 'list', 'List');
  if (args?.length !== 1) return undefined;
  return { parsed: { kind: 'value', schema: arrayFragment(elementSchema(input, args[0]!, chain, 'an element', true)), optional: input.optional } };
};
