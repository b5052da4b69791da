/**
 * params/memo.ts: values worked out once per key object (or pair), a falsy value included,
 * and nothing shared between two objects that are equal but not the same.
 */
import { describe, expect, it } from 'vitest';
import { deepFreeze, identityTable, memoByIdentity, memoByPair } from '../../core/params/memo.ts';

describe('identity memos', () => {
  it('work a value out once per object, null included', () => {
    let runs = 0;
    const typeOf = memoByIdentity((schema: { type?: string }) => {
      runs++;
      return schema.type ?? null;
    });
    const a = { type: 'object' };
    const b = {};
    expect([typeOf(a), typeOf(a), typeOf(b), typeOf(b)]).toEqual(['object', 'object', null, null]);
    expect(runs).toBe(2);
    // An equal but new object is another key: a reloaded schema is worked out again.
    expect(typeOf({ type: 'object' })).toBe('object');
    expect(runs).toBe(3);
  });

  it('work a value out once per pair', () => {
    let runs = 0;
    const merge = memoByPair((base: object, refinement: object) => {
      runs++;
      return { ...base, ...refinement };
    });
    const base = { a: 1 };
    const [r1, r2] = [{ b: 2 }, { b: 3 }];
    expect(merge(base, r1)).toBe(merge(base, r1));
    expect(merge(base, r2)).toEqual({ a: 1, b: 3 });
    expect(runs).toBe(2);
  });

  it('keep only what they are told to remember', () => {
    const table = identityTable<object, string>();
    const frozen = deepFreeze({ sizes: [1, 2] });
    expect(table.get(frozen)).toBeUndefined();
    expect(table.remember(frozen, 'h')).toBe('h');
    expect(table.get(frozen)).toBe('h');
    expect(table.get({ sizes: [1, 2] })).toBeUndefined();
  });

  it('freeze a value all the way down', () => {
    const value = deepFreeze({ sizes: [1, [2]], name: 'x' });
    expect(Object.isFrozen(value) && Object.isFrozen(value.sizes) && Object.isFrozen(value.sizes[1])).toBe(true);
    expect(() => (value.sizes as number[]).push(3)).toThrow(TypeError);
  });
});
