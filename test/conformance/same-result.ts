/**
 * @module same-result
 * The check every store conformance suite makes of a result read back: each field equal, each
 * array of the same type with the same values.
 */
import { expect } from 'vitest';
import type { StoredResult } from '../../core/results/stored-result.ts';

/** The bytes a typed array views. */
const bytesOf = (view: ArrayBufferView) => Buffer.from(view.buffer, view.byteOffset, view.byteLength);

export function expectSameResult(got: StoredResult | null, want: StoredResult): void {
  expect(got).not.toBeNull();
  for (const [key, value] of Object.entries(want)) {
    const field = (got as Record<string, unknown>)[key];
    if (ArrayBuffer.isView(value)) {
      expect(field!.constructor).toBe(value.constructor);
      // Equal bytes in arrays of one type are equal values; comparing millions of elements one by
      // one costs seconds, so the element-wise diff is only made when the bytes differ.
      if (bytesOf(field as ArrayBufferView).equals(bytesOf(value))) continue;
      expect(Array.from(field as Float32Array)).toEqual(Array.from(value as Float32Array));
      expect.unreachable(`${key}: the same values in different bytes`);
    } else {
      expect(field).toEqual(value);
    }
  }
}
