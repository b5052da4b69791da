/**
 * @module annotated-annotation
 * `Annotated[T, Range(lo, hi)]` and `Annotated[list[T], Items(min=, max=)]`: maps `T` through
 * the chain and carries the bounds and item counts beside it, with the TypeScript tags' rules:
 * bounds on a number or int (or every numeric item of a tuple or list of them), item counts on
 * a list of any length. Bounds are literal numbers (None leaves a side open), item counts whole
 * numbers; other metadata is an error rather than silently ignored.
 */
import { acceptsBounds, acceptsItemCounts } from '../../schema/apply-constraints.ts';
import type { SourceLocation } from '../../diagnostics/build-diagnostic.ts';
import { SchemaError } from '../../schema/schema-error.ts';
import { locationIn, nameOf, subscriptArgs, typeExpression } from '../python-names.ts';
import type { PyExpr } from '../reader-output.ts';
import type { PyAnnotationInput, PyAnnotationParser, PyBounds, PyItemCounts } from './annotation-parser.ts';

type Call = Extract<PyExpr, { kind: 'call' }>;

/** The marker's arguments by name: positional ones take `names` in order; `malformed` is the error of a call that cannot be read so. */
function argumentsOf(call: Call, names: [string, string], malformed: () => SchemaError): Map<string, PyExpr> {
  if (call.args.length > 2) throw malformed();
  const found = new Map<string, PyExpr>();
  call.args.forEach((arg, index) => found.set(names[index]!, arg));
  for (const { name, value } of call.keywords) {
    if (!names.includes(name) || found.has(name)) throw malformed();
    found.set(name, value);
  }
  return found;
}

/** A literal number (or None, undefined) of a marker; `whole` asks for a count. */
function numberOf(value: PyExpr | undefined, whole: boolean, fail: () => SchemaError): number | undefined {
  if (value === undefined || (value.kind === 'constant' && value.value === null)) return undefined;
  if (value.kind !== 'constant' || typeof value.value !== 'number') throw fail();
  if (whole && (!Number.isInteger(value.value) || value.float || value.value < 0)) throw fail();
  return value.value;
}

/** How one marker is written: its argument names, the keywords it sets, and its usage. */
interface MarkerSpec<K extends string> {
  names: [string, string];
  keys: [K, K];
  usage: string;
  /** Item counts are whole numbers; bounds any number. */
  whole: boolean;
}

const RANGE: MarkerSpec<'minimum' | 'maximum'> = {
  names: ['lo', 'hi'],
  keys: ['minimum', 'maximum'],
  usage: 'Range(lo, hi) with literal numbers (None for an open side)',
  whole: false,
};
const ITEMS: MarkerSpec<'minItems' | 'maxItems'> = {
  names: ['min', 'max'],
  keys: ['minItems', 'maxItems'],
  usage: 'Items(min=N, max=N) with whole numbers',
  whole: true,
};

/** A marker's two values (at least one given, the first not above the second), keyed as `spec` says. */
function readMarker<K extends string>(call: Call, input: PyAnnotationInput, spec: MarkerSpec<K>): { at: SourceLocation } & Partial<Record<K, number>> {
  const at = locationIn(input.scope, call);
  const fail = () => new SchemaError('VITRINE_SCHEMA_105', at, `\`${call.text}\` on '${input.parameter}' should read \`${spec.usage}\``, input.parameter);
  const args = argumentsOf(call, spec.names, fail);
  const [low, high] = spec.names.map((name) => numberOf(args.get(name), spec.whole, fail));
  if (low === undefined && high === undefined) throw fail();
  if (low !== undefined && high !== undefined && low > high) {
    throw new SchemaError('VITRINE_SCHEMA_105', at, `${spec.keys[0]} ${low} of '${input.parameter}' is above its ${spec.keys[1]} ${high}`, input.parameter);
  }
  const marker = { at } as { at: SourceLocation } & Partial<Record<K, number>>;
  if (low !== undefined) (marker as Record<K, number>)[spec.keys[0]] = low;
  if (high !== undefined) (marker as Record<K, number>)[spec.keys[1]] = high;
  return marker;
}

export const annotatedAnnotation: PyAnnotationParser = (input, chain) => {
  const args = subscriptArgs(input.expr, input.scope, 'Annotated');
  if (!args || args.length < 2) return undefined;
  const [inner, ...markers] = args;
  const result = chain.parse({ ...input, expr: inner! });
  let { bounds, counts } = result;
  for (const written of markers) {
    const marker = typeExpression(written);
    const name = marker.kind === 'call' ? nameOf(marker.func, input.scope) : undefined;
    const twice = (what: string) =>
      new SchemaError('VITRINE_SCHEMA_105', locationIn(input.scope, marker), `'${input.parameter}' has two ${what} markers; give one`, input.parameter);
    if (marker.kind === 'call' && name === 'Range') {
      if (bounds) throw twice('Range');
      bounds = readMarker(marker, input, RANGE) satisfies PyBounds;
      if (result.parsed.kind !== 'value' || !acceptsBounds(result.parsed.schema)) {
        throw new SchemaError(
          'VITRINE_SCHEMA_104',
          bounds.at,
          `'${input.parameter}' is not a float or int parameter (or a tuple or list of them), so it cannot have a Range`,
          input.parameter,
        );
      }
    } else if (marker.kind === 'call' && name === 'Items') {
      if (counts) throw twice('Items');
      counts = readMarker(marker, input, ITEMS) satisfies PyItemCounts;
      if (result.parsed.kind !== 'value' || !acceptsItemCounts(result.parsed.schema)) {
        throw new SchemaError(
          'VITRINE_SCHEMA_108',
          counts.at,
          `'${input.parameter}' is not a list parameter, so it cannot have Items (a tuple's length is already fixed)`,
          input.parameter,
        );
      }
    } else {
      throw new SchemaError(
        'VITRINE_SCHEMA_100',
        locationIn(input.scope, marker),
        `parameter '${input.parameter}' has Annotated metadata \`${marker.text}\`, which the build does not read; use Range(lo, hi) or Items(min=, ` +
        `max=) from vitrine`,
      );
    }
  }
  return { parsed: result.parsed, ...(bounds ? { bounds } : {}), ...(counts ? { counts } : {}) };
};
