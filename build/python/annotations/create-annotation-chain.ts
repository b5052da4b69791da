/**
 * @module create-annotation-chain
 * The Python parsers of optional, Literal and single-name annotations, and the one place the
 * parser order lives. Optional first (it strips `None` and recurses), then `Annotated` (it
 * maps its first argument through the chain), then the subscripted forms, then the single
 * names. No match gives VITRINE_SCHEMA_100.
 */
import { INPUT_KINDS, INPUT_TYPE_NAMES, inputSchema } from '../../../core/wire/input-schema.ts';
import { colorSchema } from '../../../core/params/param-vocabulary.ts';
import type { ParsedParam, SchemaFragment } from '../../schema/param-parser.ts';
import { SchemaError } from '../../schema/schema-error.ts';
import { enumFragment, scalarFragment } from '../../schema/schema-object.ts';
import { isNone, locationIn, nameOf, subscriptArgs, unionMembers } from '../python-names.ts';
import type { PyAnnotationChain, PyAnnotationInput, PyAnnotationParser, PyParsed } from './annotation-parser.ts';
import { annotatedAnnotation } from './annotated-annotation.ts';
import { listAnnotation, tupleAnnotation } from './sequence-annotation.ts';
import { unsupportedAnnotation } from './unsupported-annotation.ts';

// `T | None`, `Optional[T]`, `Union[T, None]`: removes `None`, marks the parameter optional,
// and hands `T` back to the chain (the twin of the TypeScript `T | undefined`). A union of
// several kinds besides None is left to the fallback, which says so.
function rest(input: PyAnnotationInput) {
  const members = unionMembers(input.expr, input.scope);
  if (!members || !members.some(isNone)) return undefined;
  const others = members.filter((member) => !isNone(member));
  return others.length === 1 ? others[0] : undefined;
}

const optionalAnnotation: PyAnnotationParser = (input, chain) => {
  const inner = rest(input);
  if (inner === undefined) return undefined;
  const result = chain.parse({ ...input, expr: inner, optional: true });
  return { ...result, parsed: { ...result.parsed, optional: true } };
};

// `Literal["fast", "fine"]` → `{"enum": ["fast", "fine"]}`, `Literal[1, 2, 4]` → `{"enum":
// [1, 2, 4]}`: strings or numbers (not both, not booleans), in the order written.
const literalAnnotation: PyAnnotationParser = (input) => {
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

// Annotations that are one name: `float`, `int`, `str`, `bool` (the scalar kinds), `Color`
// (the colour string), `MeshInput`/`VolumeInput`/`PointCloudInput`/`ImageInput` (the input
// objects) and `ProgressReporter` (injected, not in the schema). The fragments come from the
// same functions the TypeScript parsers use.
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

const namedAnnotation: PyAnnotationParser = (input) => {
  const parsed = parsedOf(input);
  return parsed && { parsed };
};

/** The parsers in the order they are tried. */
const ANNOTATION_PARSERS: readonly PyAnnotationParser[] = [
  optionalAnnotation,
  annotatedAnnotation,
  literalAnnotation,
  tupleAnnotation,
  listAnnotation,
  namedAnnotation,
];

export function createAnnotationChain(): PyAnnotationChain {
  const chain: PyAnnotationChain = {
    parse(input: PyAnnotationInput): PyParsed {
      for (const parser of ANNOTATION_PARSERS) {
        const parsed = parser(input, chain);
        if (parsed) return parsed;
      }
      throw unsupportedAnnotation(input);
    },
  };
  return chain;
}
