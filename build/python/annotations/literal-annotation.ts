/**
 * @module literal-annotation
 * `Literal["fast", "fine"]` → `{"enum": ["fast", "fine"]}`, `Literal[1, 2, 4]` → `{"enum":
 * [1, 2, 4]}`: strings or numbers (not both, not booleans), in the order written.
 */
import { SchemaError } from '../../schema/schema-error.ts';
import { enumFragment } from '../../schema/schema-object.ts';
import { locationIn, subscriptArgs } from '../python-names.ts';
import type { PyAnnotationParser } from './annotation-parser.ts';

export const literalAnnotation: PyAnnotationParser = (input) => {
  const args = subscriptArgs(input.expr, input.scope, 'Literal');
  if (!args) return undefined;
  const values = args.map((arg) => (arg.kind === 'constant' ? arg.value : undefined));
  const strings = values.every((value) => typeof value === 'string');
  const numbers = values.every((value) => typeof value === 'number');
  if (values.length === 0 || (!strings && !numbers)) {
    throw new SchemaError(
      'VITRINE_SCHEMA_100',
      locationIn(input.scope, input.expr),
      `parameter '${input.parameter}' has annotation '${input.expr.text}'; a Literal lists strings (Literal["a", "b"]) or numbers (Literal[1, 2, 4]), ` +
      `one kind per parameter`,
    );
  }
  return { parsed: { kind: 'value', schema: enumFragment(values as (string | number)[]), optional: input.optional } };
};
