/**
 * @module default-mismatch
 * Why a default written in source does not fit its parameter's schema, or undefined when it
 * fits. A wrong kind of value is VITRINE_SCHEMA_102; a value of the right kind outside the
 * stated bounds or item counts is VITRINE_SCHEMA_103.
 */
import type { DiagnosticCode } from '../diagnostics/diagnostic-codes.ts';
import type { JsonValue, SchemaFragment } from './param-parser.ts';

export interface Mismatch {
  code: Extract<DiagnosticCode, 'VITRINE_SCHEMA_102' | 'VITRINE_SCHEMA_103'>;
  /** Completes "default <value> of '<name>' ...". */
  text: string;
}

const wrong = (text: string): Mismatch => ({ code: 'VITRINE_SCHEMA_102', text });
const outside = (text: string): Mismatch => ({ code: 'VITRINE_SCHEMA_103', text });

function numberBounds(fragment: SchemaFragment, value: number): Mismatch | undefined {
  const { minimum, maximum } = fragment as { minimum?: number; maximum?: number };
  if (minimum !== undefined && value < minimum) return outside(`is below the minimum ${minimum}`);
  if (maximum !== undefined && value > maximum) return outside(`is above the maximum ${maximum}`);
  return undefined;
}

function isRecord(value: JsonValue): value is { [key: string]: JsonValue } {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

function arrayMismatch(fragment: SchemaFragment, value: JsonValue): Mismatch | undefined {
  if (!Array.isArray(value)) return wrong('is not an array');
  const prefix = fragment['prefixItems'] as SchemaFragment[] | undefined;
  if (prefix && value.length !== prefix.length) return wrong(`has ${value.length} items; the tuple has ${prefix.length}`);
  const { minItems, maxItems } = fragment as { minItems?: number; maxItems?: number };
  if (minItems !== undefined && value.length < minItems) return outside(`has fewer than ${minItems} items`);
  if (maxItems !== undefined && value.length > maxItems) return outside(`has more than ${maxItems} items`);
  for (const [index, item] of value.entries()) {
    const itemSchema = prefix ? prefix[index]! : (fragment['items'] as SchemaFragment);
    const mismatch = defaultMismatch(itemSchema, item);
    if (mismatch) return { code: mismatch.code, text: `item ${index} ${mismatch.text}` };
  }
  return undefined;
}

/** An input default names a specimen (an upload id does not outlive its upload). */
function inputMismatch(value: JsonValue): Mismatch | undefined {
  const usage = "is not an input reference; write specimenInput('id') or { specimen: 'id', params: { ... } }";
  if (!isRecord(value) || typeof value['specimen'] !== 'string' || value['specimen'] === '') return wrong(usage);
  if (Object.keys(value).some((key) => key !== 'specimen' && key !== 'params')) return wrong(usage);
  if (value['params'] !== undefined && !isRecord(value['params'])) return wrong('has params that are not an object');
  return undefined;
}

export function defaultMismatch(fragment: SchemaFragment, value: JsonValue): Mismatch | undefined {
  if (fragment.enum) {
    return fragment.enum.includes(value as string | number) ? undefined : wrong(`is not one of ${fragment.enum.map((v) => JSON.stringify(v)).join(', ')}`);
  }
  switch (fragment.type) {
    case 'integer':
      return Number.isInteger(value) ? numberBounds(fragment, value as number) : wrong('is not an integer');
    case 'number':
      return typeof value === 'number' && Number.isFinite(value) ? numberBounds(fragment, value) : wrong('is not a number');
    case 'string': {
      if (typeof value !== 'string') return wrong('is not a string');
      const pattern = fragment['pattern'] as string | undefined;
      if (pattern !== undefined && !new RegExp(pattern).test(value))
        return wrong(fragment['format'] === 'color' ? 'is not a colour written #rrggbb' : `does not match ${pattern}`);
      return undefined;
    }
    case 'boolean':
      return typeof value === 'boolean' ? undefined : wrong('is not a boolean');
    case 'array':
      return arrayMismatch(fragment, value);
    case 'object':
      return inputMismatch(value);
    default:
      return undefined;
  }
}
