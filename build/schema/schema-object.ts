/**
 * @module schema-object
 * The parts of a function's JSON Schema that do not depend on the language it is written in:
 * the fragments of each kind of value, a property in its fixed key order, and the schema
 * object around the properties. The TypeScript reader (generate-schema.ts) and the Python one
 * (build/python/) both build with these, so a function with the same parameters gets the same
 * schema in either language.
 */
import type { Bounds } from './read-bounds.ts';
import type { JsonValue, SchemaFragment } from './param-parser.ts';

export const SCHEMA_DIALECT = 'https://json-schema.org/draft/2020-12/schema';

/** The scalar kinds a parameter or an element may have. */
export type ScalarType = 'number' | 'integer' | 'string' | 'boolean';

export function scalarFragment(type: ScalarType): SchemaFragment {
  return { type };
}

/** A union of literals: no `type` key, values in written order. */
export function enumFragment(values: (string | number)[]): SchemaFragment {
  return { enum: values };
}

/** A fixed tuple: every element present, nothing after them. */
export function tupleFragment(prefixItems: SchemaFragment[]): SchemaFragment {
  const n = prefixItems.length;
  return { type: 'array', prefixItems, items: false, minItems: n, maxItems: n };
}

/** A list of any length of one element kind. */
export function arrayFragment(items: SchemaFragment): SchemaFragment {
  return { type: 'array', items };
}

/**
 * A property in the fixed key order: the fragment (type/enum/items...), description, default,
 * then a scalar's minimum and maximum.
 */
export function toProperty(
  fragment: SchemaFragment,
  description: string | undefined,
  defaultValue: JsonValue | undefined,
  bounds: Pick<Bounds, 'minimum' | 'maximum'> | undefined,
): Record<string, unknown> {
  const property: Record<string, unknown> = { ...fragment };
  if (description !== undefined) property['description'] = description;
  if (defaultValue !== undefined) property['default'] = defaultValue;
  if (bounds?.minimum !== undefined) property['minimum'] = bounds.minimum;
  if (bounds?.maximum !== undefined) property['maximum'] = bounds.maximum;
  return property;
}

/** The schema of function `name`: `required` only when something is. */
export function toFunctionSchema(
  name: string,
  description: string | undefined,
  properties: Record<string, unknown>,
  required: string[],
): Record<string, unknown> {
  const schema: Record<string, unknown> = { $schema: SCHEMA_DIALECT, title: name };
  if (description !== undefined) schema['description'] = description;
  schema['type'] = 'object';
  schema['properties'] = properties;
  if (required.length > 0) schema['required'] = required;
  return schema;
}
