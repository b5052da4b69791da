/**
 * @module python-defaults
 * A Python parameter's default as a JSON default, the twin of build/schema/read-default.ts:
 * literals only (numbers, negative ones too, strings, booleans, None, tuples and lists of
 * those, and for an input a dict `{"specimen": "id", "params": {...}}`), because the schema is
 * written at build time and must show the value the function really uses. Python tells `2.0`
 * from `2`, so a float default of an int parameter is refused as the TypeScript side refuses a
 * fraction.
 */
import type { SourceLocation } from '../diagnostics/build-diagnostic.ts';
import type { JsonValue, SchemaFragment } from '../schema/param-parser.ts';
import { SchemaError } from '../schema/schema-error.ts';
import type { PyExpr } from './reader-output.ts';

function notLiteral(expr: PyExpr, at: SourceLocation, parameter: string): SchemaError {
  return new SchemaError(
    'VITRINE_SCHEMA_101',
    at,
    `default of parameter '${parameter}' is \`${expr.text}\`; a default must be a literal number (e.g. 1.5, -2), string, bool, ` +
      'a tuple or list of those, or for an input a dict such as {"specimen": "id"}',
  );
}

function readValue(expr: PyExpr, whole: PyExpr, at: SourceLocation, parameter: string): JsonValue {
  switch (expr.kind) {
    case 'constant':
      return expr.value;
    case 'sequence':
      return expr.items.map((item) => readValue(item, whole, at, parameter));
    case 'mapping': {
      const value: Record<string, JsonValue> = {};
      for (const entry of expr.entries) {
        if (entry.key.kind !== 'constant' || typeof entry.key.value !== 'string') throw notLiteral(whole, at, parameter);
        value[entry.key.value] = readValue(entry.value, whole, at, parameter);
      }
      return value;
    }
    default:
      throw notLiteral(whole, at, parameter);
  }
}

/** The literal value of `expr` (at `at`); throws VITRINE_SCHEMA_101 for anything else. */
export function readPythonDefault(expr: PyExpr, at: SourceLocation, parameter: string): JsonValue {
  return readValue(expr, expr, at, parameter);
}

/** True when `expr` writes a float (`2.0`) where `fragment` (or an item of it) asks for an int. */
export function floatForInteger(fragment: SchemaFragment, expr: PyExpr): boolean {
  if (fragment.type === 'integer') return expr.kind === 'constant' && expr.float === true;
  if (fragment.type !== 'array' || expr.kind !== 'sequence') return false;
  const prefix = fragment['prefixItems'] as SchemaFragment[] | undefined;
  return expr.items.some((item, index) => {
    const itemSchema = prefix ? prefix[index] : (fragment['items'] as SchemaFragment);
    return itemSchema !== undefined && floatForInteger(itemSchema, item);
  });
}
