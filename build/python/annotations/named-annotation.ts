/**
 * @module named-annotation
 * Annotations that are one name: `float`, `int`, `str`, `bool` (the scalar kinds), `Color`
 * (the colour string), `MeshInput`/`VolumeInput`/`PointCloudInput`/`ImageInput` (the input
 * objects) and `ProgressReporter` (injected, not in the schema). The fragments come from the
 * same functions the TypeScript parsers use.
 */
import { INPUT_KINDS, INPUT_TYPE_NAMES, inputSchema } from '../../../core/wire/input-schema.ts';
import { colorSchema } from '../../../core/params/param-vocabulary.ts';
import type { ParsedParam, SchemaFragment } from '../../schema/param-parser.ts';
import { scalarFragment } from '../../schema/schema-object.ts';
import { nameOf } from '../python-names.ts';
import type { PyAnnotationInput, PyAnnotationParser } from './annotation-parser.ts';

const VALUE_FRAGMENTS: Record<string, () => SchemaFragment> = {
  float: () => scalarFragment('number'),
  int: () => scalarFragment('integer'),
  str: () => scalarFragment('string'),
  bool: () => scalarFragment('boolean'),
  Color: () => colorSchema(),
  ...Object.fromEntries(INPUT_KINDS.map((kind) => [INPUT_TYPE_NAMES[kind], () => inputSchema(kind)])),
};

function parsedOf(input: PyAnnotationInput): ParsedParam | undefined {
  const name = nameOf(input.expr, input.scope);
  if (name === undefined) return undefined;
  if (name === 'ProgressReporter') return { kind: 'reporter', optional: input.optional };
  const fragment = Object.hasOwn(VALUE_FRAGMENTS, name) ? VALUE_FRAGMENTS[name]!() : undefined;
  return fragment && { kind: 'value', schema: fragment, optional: input.optional };
}

export const namedAnnotation: PyAnnotationParser = (input) => {
  const parsed = parsedOf(input);
  return parsed && { parsed };
};
