/**
 * Schemas inferred for functions registered in code: literal defaults give the type, and an
 * array literal of literals gives an array of their common type.
 */
import { describe, expect, it } from 'vitest';
import { inferSchema } from '../../core/registry/infer-schema.ts';

describe('inferSchema', () => {
  it('reads scalar and array literal defaults', () => {
    const fn = (axis = [0, 0, -1], names = ['a'], mixed = [1, 'a'], empty = [], radius = 2, computed = [Math.PI], size?: number) => [
      axis,
      names,
      mixed,
      empty,
      radius,
      computed,
      size,
    ];
    const { schema } = inferSchema('f', fn as never);
    expect(schema['properties']).toEqual({
      axis: { type: 'array', items: { type: 'number' }, default: [0, 0, -1] },
      names: { type: 'array', items: { type: 'string' }, default: ['a'] },
      mixed: { type: 'array', default: [1, 'a'] },
      empty: { type: 'array', default: [] },
      radius: { type: 'number', default: 2 },
      computed: {},
      size: {},
    });
    expect(schema['required']).toEqual(['size']);
  });
});
