/**
 * @module version-order.test
 * Which plugin version is the earlier: dotted numbers one by one, a pre-release before its
 * release (npm's and Python's spellings), and no order at all for versions without numbers.
 */
import { describe, expect, it } from 'vitest';
import { isEarlier } from '../../core/versions/version-order.ts';

describe('plugin version order', () => {
  it('compares dotted numbers one by one', () => {
    expect(isEarlier('1.9.2', '1.10.0')).toBe(true);
    expect(isEarlier('1.10.0', '1.9.2')).toBe(false);
    expect(isEarlier('1.2', '1.2.0')).toBe(false);
    expect(isEarlier('v0.9.0', '1.0.0')).toBe(true);
    expect(isEarlier('1.0.0', '1.0.0')).toBe(false);
  });

  it('puts a pre-release before its release, and a build or post release not before it', () => {
    expect(isEarlier('2.0.0-rc.1', '2.0.0')).toBe(true);
    expect(isEarlier('2.0.0rc1', '2.0.0')).toBe(true);
    expect(isEarlier('2.0.0', '2.0.0-rc.1')).toBe(false);
    expect(isEarlier('2.0.0+build.7', '2.0.0')).toBe(false);
    expect(isEarlier('2.0.0.post1', '2.0.0')).toBe(false);
  });

  it('does not order versions without numbers', () => {
    expect(isEarlier('dev', '1.0.0')).toBe(false);
    expect(isEarlier('1.0.0', 'latest')).toBe(false);
  });
});
