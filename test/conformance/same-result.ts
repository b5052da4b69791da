/**
 * @module same-result
 * The check every store conformance suite makes of a result read back: each field equal, each
 * array of the same type with the same values.
 */
import { expect } from 'vitest';
import type { StoredResult } from '../../core/results/stored-result.ts';

export function expectSameResult(got: StoredResult | null, want: StoredResult): void {
  expect(got).not.toBeNull();
  for (const [key, value] of Object.entries(want)) {
    const field = (got as Record<string, unknown>)[key];
    if (ArrayBuffer.isView(value)) {
      expect(field!.constructor).toBe(value.constructor);
      expect(Array.from(field as Float32Array)).toEqual(Array.from(value as Float32Array));
    } else {
      expect(field).toEqual(value);
    }
  }
}
