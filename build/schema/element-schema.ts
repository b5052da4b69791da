/**
 * @module element-schema
 * The schema of one element of a tuple or array parameter. Elements go through the same
 * chain as parameters, but only scalar kinds are accepted (number, Integer, string, boolean,
 * Color, a union of literals), and for an array also a fixed tuple of them (a list of points,
 * `[number, number, number][]`): no objects, inputs, deeper nesting or optional elements.
 */
import { TypeFormatFlags, type Type, type TypeNode } from 'ts-morph';
import type { ParamChain, ParamInput, SchemaFragment } from './param-parser.ts';
import { SchemaError } from './schema-error.ts';

export const ELEMENT_TYPES_TEXT = 'number, Integer, string, boolean, Color or a union of string or number literals (and for an array, a fixed tuple of these)';

const SCALAR_TYPES: ReadonlySet<unknown> = new Set(['number', 'integer', 'string', 'boolean']);

/** A scalar kind's fragment: number, Integer, string, boolean, Color or a union of literals. */
export function isScalar(fragment: SchemaFragment): boolean {
  return fragment.enum !== undefined || SCALAR_TYPES.has(fragment.type);
}

/** A fixed tuple of scalars (what the tuple parser makes of `[number, number, number]`). */
export function isScalarTuple(fragment: SchemaFragment): boolean {
  return fragment.type === 'array' && Array.isArray(fragment.prefixItems) && (fragment.prefixItems as SchemaFragment[]).every(isScalar);
}

/** Throws the VITRINE_SCHEMA_100 error for an element the build cannot map. */
export function unsupportedElement(param: ParamInput, node: TypeNode | undefined, text: string, what: string): SchemaError {
  return new SchemaError(
    'VITRINE_SCHEMA_100',
    node ?? param.typeNode ?? param.declaration,
    `parameter '${param.declaration.getName()}' has ${what} of type '${text}'; elements may be ${ELEMENT_TYPES_TEXT}`,
  );
}

/**
 * Parses `type` (written as `node`, when there is an annotation) as an element of `param`.
 * @param what How messages name the element: 'element 2', 'an element'.
 * @param tuples Whether a fixed tuple of scalars is an element too (an array's, not a tuple's).
 */
export function elementSchema(param: ParamInput, type: Type, node: TypeNode | undefined, chain: ParamChain, what: string, tuples = false): SchemaFragment {
  const text = node?.getText() ?? type.getText(param.declaration, TypeFormatFlags.UseAliasDefinedOutsideCurrentScope);
  let parsed;
  try {
    parsed = chain.parse({ declaration: param.declaration, members: type.isUnion() ? type.getUnionTypes() : [type], typeNode: node, optional: false });
  } catch (error) {
    if (error instanceof SchemaError && error.code === 'VITRINE_SCHEMA_100') throw unsupportedElement(param, node, text, what);
    throw error;
  }
  if (parsed.kind !== 'value' || parsed.optional || !(isScalar(parsed.schema) || (tuples && isScalarTuple(parsed.schema))))
    throw unsupportedElement(param, node, text, what);
  return parsed.schema;
}
