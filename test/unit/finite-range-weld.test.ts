/**
 * The passes an upload makes over its numbers: finding a NaN or an infinity at any place
 * (each of the four running sums, and the tail past them), the value range passing NaN over,
 * and welding equal corners bit for bit.
 */
import { describe, expect, it } from 'vitest';
import { valueRange } from '../../core/envelope/value-range.ts';
import { weldVertices } from '../../core/formats/weld-vertices.ts';
import { firstNonFinite } from '../../core/envelope/first-non-finite.ts';

describe('firstNonFinite', () => {
  it('finds the first NaN or infinity wherever it is, in float32 and float64 arrays', () => {
    for (const Ctor of [Float32Array, Float64Array]) {
      for (const length of [1, 4, 7, 13]) {
        expect(firstNonFinite(new Ctor(length).fill(1.5))).toBe(-1);
        for (let at = 0; at < length; at++) {
          for (const bad of [Number.NaN, Infinity, -Infinity]) {
            const values = new Ctor(length).fill(-2);
            values[at] = bad;
            if (at + 2 < length) values[at + 2] = Number.NaN;
            expect(firstNonFinite(values)).toBe(at);
          }
        }
      }
    }
    expect(firstNonFinite(new Float32Array(0))).toBe(-1);
    expect(firstNonFinite(Float64Array.of(Number.MAX_VALUE, -Number.MAX_VALUE, Number.MIN_VALUE))).toBe(-1);
  });
});

describe('valueRange', () => {
  it('is the finite [min, max], passing NaN over, at even and odd lengths', () => {
    expect(valueRange(Float32Array.of(3, -1, 7, 2))).toEqual([-1, 7]);
    expect(valueRange(Float32Array.of(3, -1, 7, 2, -9))).toEqual([-9, 7]);
    expect(valueRange(Float64Array.of(Number.NaN, 4, Number.NaN, -4, Number.NaN))).toEqual([-4, 4]);
    expect(valueRange(Float32Array.of(Number.NaN, Number.NaN))).toBeUndefined();
    expect(valueRange(Float32Array.of(1, Infinity))).toBeUndefined();
    expect(valueRange(Uint8Array.of(5))).toEqual([5, 5]);
    expect(valueRange(new Float32Array(0))).toBeUndefined();
  });
});

describe('weldVertices', () => {
  it('shares the vertices of equal corners, keeps -0 apart from 0, in first-seen order', () => {
    const corners = Float32Array.of(0, 0, 0, 1, 0, 0, 0, 1, 0, /* second triangle */ 1, 0, 0, 1, 1, 0, 0, 1, 0, /* third */ -0, 0, 0, 1, 1, 0, 2, 2, 2);
    const mesh = weldVertices(corners);
    expect([...mesh.indices]).toEqual([0, 1, 2, 1, 3, 2, 4, 3, 5]);
    expect([...mesh.vertices]).toEqual([0, 0, 0, 1, 0, 0, 0, 1, 0, 1, 1, 0, -0, 0, 0, 2, 2, 2]);
    expect(Object.is(mesh.vertices[12], -0)).toBe(true);
    expect(mesh.vertices.buffer).toBeInstanceOf(SharedArrayBuffer);
    expect(mesh.indices.buffer).toBeInstanceOf(SharedArrayBuffer);
  });

  it('welds a grid of round coordinates (the floats a hash spreads worst) into its distinct points', () => {
    const corners: number[] = [];
    for (let y = 0; y < 40; y++) for (let x = 0; x < 50; x++) corners.push(x, y, 0, x + 1, y, 0, x, y + 1, 0);
    const mesh = weldVertices(Float32Array.from(corners));
    expect(mesh.vertices.length / 3).toBe(51 * 41 - 1);
    for (let i = 0; i < mesh.indices.length; i++) {
      const v = mesh.indices[i]! * 3;
      expect([mesh.vertices[v], mesh.vertices[v + 1], mesh.vertices[v + 2]]).toEqual(corners.slice(i * 3, i * 3 + 3));
    }
  });
});
