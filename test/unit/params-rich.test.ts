/**
 * The host's parameter check on the kinds beyond scalars: tuples, arrays with item counts,
 * number enums, colours, optional parameters without defaults and input references. Values
 * are checked as sent (no coercion) and every refusal names the parameter and the item.
 */
import { describe, expect, it } from 'vitest';
import { cacheKey } from '../../core/params/params-hash.ts';
import { inputSchema } from '../../core/wire/input-schema.ts';
import { colorSchema } from '../../core/params/param-vocabulary.ts';
import { parseParamsQuery } from '../../core/params/parse-params.ts';
import { resolveParams } from '../../core/params/resolve-params.ts';

const schema = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  title: 'rich',
  type: 'object',
  properties: {
    axis: {
      type: 'array',
      prefixItems: [
        { type: 'number', minimum: -1, maximum: 1 },
        { type: 'number', minimum: -1, maximum: 1 },
        { type: 'number', minimum: -1, maximum: 1 },
      ],
      items: false,
      minItems: 3,
      maxItems: 3,
      default: [0, 0, 1],
    },
    levels: { type: 'array', items: { type: 'number' }, minItems: 1, maxItems: 3, default: [0.5] },
    counts: { type: 'array', items: { type: 'integer' } },
    factor: { enum: [1, 2, 4], default: 2 },
    tint: { ...colorSchema(), default: '#d08030' },
    volume: { ...inputSchema('volume'), default: { specimen: 'ct-head-phantom' } },
    seed: { type: 'integer' },
  },
};
const ORDER = Object.keys(schema.properties);

function fail(named: Record<string, unknown>): string {
  try {
    resolveParams(schema, ORDER, { named }, 'rich');
  } catch (error) {
    return (error as Error).message;
  }
  return 'accepted';
}

describe('parameters beyond scalars', () => {
  it('fills defaults (tuples, arrays, colours, inputs) and leaves optional ones unset', () => {
    const empty = resolveParams(schema, ORDER, {}, 'rich');
    expect(empty).toEqual({ axis: [0, 0, 1], levels: [0.5], factor: 2, tint: '#d08030', volume: { specimen: 'ct-head-phantom' } });
    expect('seed' in empty).toBe(false);
    const explicit = resolveParams(
      schema,
      ORDER,
      { named: { volume: { specimen: 'ct-head-phantom' }, axis: [0, 0, 1], tint: '#d08030', levels: [0.5], factor: 2 } },
      'rich',
    );
    expect(cacheKey('rich', explicit)).toBe(cacheKey('rich', empty));
    // A default is copied, so a function that mutates its array cannot change the schema.
    (empty['axis'] as number[])[0] = 9;
    expect(resolveParams(schema, ORDER, {}, 'rich')['axis']).toEqual([0, 0, 1]);
  });

  it('accepts values of every kind, also through the GET query JSON', () => {
    const named = parseParamsQuery(
      JSON.stringify({ axis: [1, -1, 0.5], levels: [0.1, 0.2, 0.3], counts: [], factor: 4, tint: '#ABCDEF', volume: { upload: 'u1' }, seed: 7 }),
      10_000,
    );
    expect(resolveParams(schema, ORDER, { named }, 'rich')).toMatchObject({
      axis: [1, -1, 0.5],
      factor: 4,
      tint: '#ABCDEF',
      volume: { upload: 'u1' },
      seed: 7,
    });
    expect(resolveParams(schema, ORDER, { positional: [[0, 1, 0], [1]] }, 'rich')).toMatchObject({ axis: [0, 1, 0], levels: [1] });
    expect(fail({ volume: { specimen: 'torus', params: { radius: 2 } } })).toBe('accepted');
  });

  it('refuses wrong tuples and arrays, naming the parameter and the item', () => {
    expect(fail({ axis: [0, 0] })).toMatch(/parameter 'axis' must NOT have fewer than 3 items/);
    expect(fail({ axis: [0, 0, 0, 0] })).toMatch(/parameter 'axis' must NOT have more than 3 items/);
    expect(fail({ axis: [0, '1', 0] })).toMatch(/parameter 'axis' item 1 must be number/);
    expect(fail({ axis: [0, 0, 2] })).toMatch(/parameter 'axis' item 2 must be <= 1/);
    expect(fail({ axis: '0,0,1' })).toMatch(/parameter 'axis' must be array/);
    expect(fail({ levels: [] })).toMatch(/parameter 'levels' must NOT have fewer than 1 items/);
    expect(fail({ levels: [1, 2, 3, 4] })).toMatch(/parameter 'levels' must NOT have more than 3 items/);
    expect(fail({ counts: [1, 2.5] })).toMatch(/parameter 'counts' item 1 must be integer/);
    expect(fail({ counts: [[1]] })).toMatch(/parameter 'counts' item 0 must be integer/);
  });

  it('refuses numbers outside the enum, bad colours and null for an unset parameter', () => {
    expect(fail({ factor: 3 })).toBe("parameter 'factor' must be one of 1, 2, 4");
    expect(fail({ factor: '2' })).toBe("parameter 'factor' must be one of 1, 2, 4");
    expect(fail({ tint: 'orange' })).toBe("parameter 'tint' must be a colour written #rrggbb");
    expect(fail({ tint: '#abc' })).toBe("parameter 'tint' must be a colour written #rrggbb");
    expect(fail({ tint: 0xffffff })).toMatch(/parameter 'tint' must be string/);
    expect(fail({ seed: null })).toMatch(/parameter 'seed' must be integer/);
  });

  it('refuses input values of the wrong shape with the two accepted shapes', () => {
    const shapes = 'must be {"specimen": "<id>", "params": {...}} or {"upload": "<upload_id>"} (an input of type volume)';
    for (const volume of [
      'ct-head-phantom',
      null,
      {},
      { specimen: 'a', upload: 'b' },
      { specimen: '' },
      { specimen: 'a', params: [] },
      { upload: 3 },
      [{ specimen: 'a' }],
    ]) {
      expect(fail({ volume }), JSON.stringify(volume)).toBe(`parameter 'volume' ${shapes}`);
    }
  });
});
