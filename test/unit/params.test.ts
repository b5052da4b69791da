import { describe, expect, it } from 'vitest';
import { cacheKey } from '../../core/params/params-hash.ts';
import { stableJson } from '../../core/wire/stable-json.ts';
import { parseParamsQuery } from '../../core/params/parse-params.ts';
import { refineSchema, resolveParams } from '../../core/params/resolve-params.ts';

const schema = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  title: 'f',
  type: 'object',
  properties: { a: { type: 'number', default: 1, minimum: 0 }, n: { type: 'integer', default: 2 }, m: { enum: ['x', 'y'], default: 'x' } },
};

describe('params', () => {
  it('fills defaults so {} and the explicit defaults hash alike', () => {
    const empty = resolveParams(schema, ['a', 'n', 'm'], {}, 'f');
    const explicit = resolveParams(schema, ['a', 'n', 'm'], { named: { m: 'x', n: 2, a: 1 } }, 'f');
    const positional = resolveParams(schema, ['a', 'n', 'm'], { positional: [1, 2] }, 'f');
    expect(cacheKey('f', empty)).toBe(cacheKey('f', explicit));
    expect(cacheKey('f', positional)).toBe(cacheKey('f', explicit));
    expect(stableJson({ b: 1, a: [{ d: 1, c: 2 }] })).toBe('{"a":[{"c":2,"d":1}],"b":1}');
  });

  it('names the parameter in every refusal, with no coercion', () => {
    const fail = (raw: object) => {
      try {
        resolveParams(schema, ['a', 'n', 'm'], raw, 'f');
      } catch (error) {
        return (error as Error).message;
      }
      return 'accepted';
    };
    expect(fail({ named: { a: '1' } })).toContain("'a'");
    expect(fail({ named: { a: -1 } })).toContain("'a'");
    expect(fail({ named: { n: 1.5 } })).toContain("'n'");
    expect(fail({ named: { m: 'z' } })).toContain("'m'");
    expect(fail({ named: { q: 1 } })).toContain("'q'");
  });

  it('parses the params query string strictly', () => {
    expect(parseParamsQuery(undefined, 100)).toEqual({});
    expect(parseParamsQuery('{"a":1}', 100)).toEqual({ a: 1 });
    expect(() => parseParamsQuery('{', 100)).toThrow(/not valid JSON/);
    expect(() => parseParamsQuery('null', 100)).toThrow(/JSON object/);
    expect(() => parseParamsQuery('{"a":1}', 3)).toThrow(/limit/);
  });

  it('refines a generated schema property by property', () => {
    const refinement = { properties: { a: { maximum: 5, default: 2 } } };
    const refined = refineSchema(schema, refinement);
    expect(refined.properties).toMatchObject({ a: { type: 'number', default: 2, minimum: 0, maximum: 5 }, n: { type: 'integer' } });
    expect(refined.title).toBe('f');
    // One object per (schema, refinement) pair, so its validator is compiled once.
    expect(refineSchema(schema, refinement)).toBe(refineSchema(schema, refinement));
  });
});
