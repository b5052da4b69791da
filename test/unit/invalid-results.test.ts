/**
 * The result rules both languages hold, from one table (test/fixtures/results/invalid-results.json):
 * each case breaks one rule of a valid result, and the host's checks (normalizeResult, as a
 * function's result and a read file pass them) refuse it with a message naming what is wrong.
 * The same table runs against the Python checks in test/python/py/test_invalid_results.py.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { isDType, TYPED_ARRAYS } from '../../core/envelope/dtypes.ts';
import { normalizeResult, ResultShapeError } from '../../core/results/normalize-result.ts';
import type { ResultType } from '../../core/sdk/result-types.ts';

interface Table {
  valid: Record<ResultType, Record<string, unknown>>;
  cases: { rule: string; type: ResultType; change: Record<string, unknown>; mentions: string[] }[];
}

const TABLE = JSON.parse(readFileSync(new URL('../fixtures/results/invalid-results.json', import.meta.url), 'utf8')) as Table;

/** The table's JSON as values: `{"<dtype>": [...]}` a typed array, `{"float": "NaN"}` that number. */
function decode(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(decode);
  if (value === null || typeof value !== 'object') return value;
  const entries = Object.entries(value);
  if (entries.length === 1 && entries[0]![0] === 'float') return Number(entries[0]![1]);
  if (entries.length === 1 && isDType(entries[0]![0])) return TYPED_ARRAYS[entries[0]![0]].from(decode(entries[0]![1]) as number[]);
  return Object.fromEntries(entries.map(([key, item]) => [key, decode(item)]));
}

function refusal(value: unknown, type: ResultType): string {
  try {
    normalizeResult(value, type);
  } catch (error) {
    if (error instanceof ResultShapeError) return error.message;
    throw error;
  }
  throw new Error('the result was accepted');
}

describe('the invalid-result table against the TypeScript checks', () => {
  it.each(Object.keys(TABLE.valid) as ResultType[])('accepts the valid %s', (type) => {
    expect(normalizeResult(decode(TABLE.valid[type]), type).type).toBe(type);
  });

  it.each(TABLE.cases.map((c) => [c.rule, c] as const))('refuses a result that breaks: %s', (_rule, c) => {
    const message = refusal({ ...(decode(TABLE.valid[c.type]) as object), ...(decode(c.change) as object) }, c.type);
    for (const word of c.mentions) expect(message.toLowerCase(), message).toContain(word.toLowerCase());
  });
});
