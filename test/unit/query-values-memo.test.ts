import { describe, expect, it } from 'vitest';
import { cacheKey } from '../../core/params/params-hash.ts';
import { parseParamsQuery } from '../../core/params/parse-params.ts';
import { memoizedQueryValues } from '../../core/params/query-values-memo.ts';
import { resolveParams } from '../../core/params/resolve-params.ts';

function schemaOf(defaultA: number) {
  return {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    title: 'f',
    type: 'object',
    properties: { a: { type: 'number', default: defaultA, minimum: 0 }, v: { type: 'array', items: { type: 'number' }, default: [1, 2, 3] } },
  };
}

/** Checks `text` under `schema` through the memo, counting the checks that really ran. */
function checker(schema: Record<string, unknown>) {
  let runs = 0;
  const values = (text: string | undefined) =>
    memoizedQueryValues(schema, text, () => {
      runs += 1;
      return resolveParams(schema, ['a', 'v'], { named: parseParamsQuery(text, 4096) }, 'f');
    });
  return { values, runs: () => runs };
}

describe('checked values of params query texts', () => {
  it('checks a text once and hands every later request the same frozen values', () => {
    const { values, runs } = checker(schemaOf(1));
    const first = values('{"a":3}');
    const again = values('{"a":3}');
    expect(again).toBe(first);
    expect(runs()).toBe(1);
    expect(first).toEqual({ a: 3, v: [1, 2, 3] });
    expect(Object.isFrozen(first) && Object.isFrozen(first.v)).toBe(true);
    expect(() => (first.v as number[]).push(4)).toThrow(TypeError);
    // Absent and empty are both "no parameters": one entry.
    expect(values(undefined)).toBe(values(''));
    expect(runs()).toBe(2);
  });

  it('hashes a remembered values object like an equal fresh one', () => {
    const { values } = checker(schemaOf(1));
    const remembered = values('{"a":2}');
    expect(cacheKey('f', remembered)).toBe(cacheKey('f', { v: [1, 2, 3], a: 2 }));
    expect(cacheKey('f', values('{"a":2}'))).toBe(cacheKey('f', remembered));
  });

  it('keeps no refused text: the same bad text is refused by the check every time', () => {
    const { values, runs } = checker(schemaOf(1));
    expect(() => values('{"a":-1}')).toThrow(/'a'/);
    expect(() => values('{"a":-1}')).toThrow(/'a'/);
    expect(() => values('{')).toThrow(/not valid JSON/);
    expect(runs()).toBe(3);
  });

  it('keeps texts apart per schema: a new schema (a reloaded plugin) checks again with its defaults', () => {
    const before = checker(schemaOf(1));
    const after = checker(schemaOf(5));
    expect(before.values('{}')).toEqual({ a: 1, v: [1, 2, 3] });
    expect(after.values('{}')).toEqual({ a: 5, v: [1, 2, 3] });
    expect(after.runs()).toBe(1);
  });

  it('checks long texts every time without keeping them', () => {
    const { values, runs } = checker(schemaOf(1));
    const long = `{"a":1${' '.repeat(1100)}}`;
    const first = values(long);
    expect(values(long)).not.toBe(first);
    expect(first).toEqual({ a: 1, v: [1, 2, 3] });
    expect(Object.isFrozen(first)).toBe(false);
    expect(runs()).toBe(2);
  });
});
