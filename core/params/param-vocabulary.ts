/**
 * @module param-vocabulary
 * What parameter schemas use beyond plain draft 2020-12, taught to every Ajv that reads them
 * (the host's parameter check, the build's default check, tests): the `color` format
 * (`#rrggbb`) and the `x-vitrine-input` annotation keyword.
 */
import type { Ajv2020 } from 'ajv/dist/2020.js';
import { INPUT_KEYWORD, INPUT_KINDS } from '../wire/input-schema.ts';

/** The `#rrggbb` form every `Color` value has. */
export const COLOR_PATTERN = '^#[0-9a-fA-F]{6}$';

/** The schema of a `Color` parameter. */
export function colorSchema(): Record<string, unknown> {
  return { type: 'string', format: 'color', pattern: COLOR_PATTERN };
}

const COLOR_REGEX = new RegExp(COLOR_PATTERN);

/** Adds the `color` format and the input keyword to `ajv`; returns it. */
export function addParamVocabulary<A extends Ajv2020>(ajv: A): A {
  ajv.addFormat('color', COLOR_REGEX);
  // An annotation: the value check is the schema's own `oneOf`; the host resolves the input.
  ajv.addKeyword({ keyword: INPUT_KEYWORD, schemaType: 'string', metaSchema: { enum: [...INPUT_KINDS] } });
  return ajv;
}
