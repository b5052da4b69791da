/**
 * @module annotated-annotation
 * `Annotated[T, Range(lo, hi)]` and `Annotated[list[T], Items(min=, max=)]`: maps `T` through
 * the chain and carries the bounds and item counts beside it, with the TypeScript tags' rules:
 * bounds on a number or int (or every numeric item of a tuple or list of them), item counts on
 * a list of any length. Bounds are literal numbers (None leaves a side open), item counts whole
 * numbers; other metadata is an error rather than silently ignored.
 */
import { acceptsBounds, acceptsItemCounts } from '../../schema/apply-constraints.ts';
import { SchemaError } from '../../schema/schema-error.ts';
import { locationIn, nameOf, subscriptArgs, typeExpression } from '../python-names.ts';
import type { PyExpr } from '../reader-output.ts';
import type { PyAnnotationInput, PyAnnotationParser, PyBounds, PyItemCounts } from './annotation-parser.ts';

type Call = Extract<PyExpr, { kind: 'call' }>;

/** The marker's arguments by name: positional ones take `names` in order. */
function argumentsOf(call: Call, names: [string, string], input: PyAnnotationInput, usage: string): Map<string, PyExpr> {
  const malformed = () => new SchemaError('VITRINE_SCHEMA_105', locationIn(input.scope, call), `\`${call.text}\` on '${input.parameter}' should read \`${usage}\``, input.parameter);
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

function readRange(call: Call, input: PyAnnotationInput): PyBounds {
  const usage = 'Range(lo, hi) with literal numbers (None for an open side)';
  const fail = () => new SchemaError('VITRINE_SCHEMA_105', locationIn(input.scope, call), `\`${call.text}\` on '${input.parameter}' should read \`${usage}\``, input.parameter);
  const args = argumentsOf(call, ['lo', 'hi'], input, usage);
  const bounds: PyBounds = { at: locationIn(input.scope, call) };
  const [minimum, maximum] = [numberOf(args.get('lo'), false, fail), numberOf(args.get('hi'), false, fail)];
  if (minimum === undefined && maximum === undefined) throw fail();
  if (minimum !== undefined && maximum !== undefined && minimum > maximum) {
    throw new SchemaError('VITRINE_SCHEMA_105', bounds.at, `minimum ${minimum} of '${input.parameter}' is above its maximum ${maximum}`, input.parameter);
  }
  if (minimum !== undefined) bounds.minimum = minimum;
  if (maximum !== undefined) bounds.maximum = maximum;
  return bounds;
}

function readItems(call: Call, input: PyAnnotationInput): PyItemCounts {
  const usage = 'Items(min=N, max=N) with whole numbers';
  const fail = () => new SchemaError('VITRINE_SCHEMA_105', locationIn(input.scope, call), `\`${call.text}\` on '${input.parameter}' should read \`${usage}\``, input.parameter);
  const args = argumentsOf(call, ['min', 'max'], input, usage);
  const counts: PyItemCounts = { at: locationIn(input.scope, call) };
  const [minItems, maxItems] = [numberOf(args.get('min'), true, fail), numberOf(args.get('max'), true, fail)];
  if (minItems === undefined && maxItems === undefined) throw fail();
  if (minItems !== undefined && maxItems !== undefined && minItems > maxItems) {
    throw new SchemaError('VITRINE_SCHEMA_105', counts.at, `minItems ${minItems} of '${input.parameter}' is above its maxItems ${maxItems}`, input.parameter);
  }
  if (minItems !== undefined) counts.minItems = minItems;
  if (maxItems !== undefined) counts.maxItems = maxItems;
  return counts;
}

export const annotatedAnnotation: PyAnnotationParser = {
  name: 'annotated',
  supports: (input) => (subscriptArgs(input.expr, input.scope, 'Annotated')?.length ?? 0) >= 2,
  toSchema(input, chain) {
    const [inner, ...markers] = subscriptArgs(input.expr, input.scope, 'Annotated')!;
    const result = chain.parse({ ...input, expr: inner! });
    let { bounds, counts } = result;
    for (const written of markers) {
      const marker = typeExpression(written);
      const name = marker.kind === 'call' ? nameOf(marker.func, input.scope) : undefined;
      const twice = (what: string) => new SchemaError('VITRINE_SCHEMA_105', locationIn(input.scope, marker), `'${input.parameter}' has two ${what} markers; give one`, input.parameter);
      if (marker.kind === 'call' && name === 'Range') {
        if (bounds) throw twice('Range');
        bounds = readRange(marker, input);
        if (result.parsed.kind !== 'value' || !acceptsBounds(result.parsed.schema)) {
          throw new SchemaError('VITRINE_SCHEMA_104', bounds.at, `'${input.parameter}' is not a float or int parameter (or a tuple or list of them), so it cannot have a Range`, input.parameter);
        }
      } else if (marker.kind === 'call' && name === 'Items') {
        if (counts) throw twice('Items');
        counts = readItems(marker, input);
        if (result.parsed.kind !== 'value' || !acceptsItemCounts(result.parsed.schema)) {
          throw new SchemaError('VITRINE_SCHEMA_108', counts.at, `'${input.parameter}' is not a list parameter, so it cannot have Items (a tuple's length is already fixed)`, input.parameter);
        }
      } else {
        throw new SchemaError('VITRINE_SCHEMA_100', locationIn(input.scope, marker), `parameter '${input.parameter}' has Annotated metadata \`${marker.text}\`, which the build does not read; use Range(lo, hi) or Items(min=, max=) from vitrine`);
      }
    }
    return { parsed: result.parsed, ...(bounds ? { bounds } : {}), ...(counts ? { counts } : {}) };
  },
};
