/**
 * The viewer's default display window (core/viewer/app/stage/window-level.ts): percentiles
 * from the histogram, and a see-through floor past a background peak.
 */
import { describe, expect, it } from 'vitest';
import { defaultWindow, histogramOf } from '../../core/viewer/app/stage/window-level.ts';

describe('defaultWindow', () => {
  it('spans the 1st to 99th percentile, so a few outliers do not set the range', () => {
    const data = new Float32Array(10_000);
    for (let i = 0; i < data.length; i++) data[i] = i / data.length; // 0..1, evenly
    data[0] = -1000;
    data[1] = 1000;
    const window = defaultWindow(data, -1000, 1000);
    expect(window.low).toBeGreaterThan(-5);
    expect(window.low).toBeLessThan(0.05);
    expect(window.high).toBeGreaterThan(0.95);
    expect(window.high).toBeLessThan(5);
    // No background peak at the bottom: nothing is hidden.
    expect(window.floor).toBe(-1000);
  });

  it('makes a background peak see-through and keeps what lies past it', () => {
    // Mostly "air" around 12 with noise, some "tissue" at 52 and a little "bone" at 210, as uint8.
    const data = new Uint8Array(100_000);
    for (let i = 0; i < data.length; i++) data[i] = i % 10 < 7 ? 10 + (i % 5) : i % 10 < 9 ? 52 : 210;
    const window = defaultWindow(data, 0, 222);
    expect(window.floor).toBeGreaterThan(14);
    expect(window.floor).toBeLessThan(52);
    expect(window.low).toBeLessThanOrEqual(10);
    expect(window.high).toBeGreaterThan(52);
  });

  it('gives the whole range for a constant volume', () => {
    expect(defaultWindow(new Float32Array(8).fill(3), 3, 3)).toEqual({ low: 3, high: 3, floor: 3 });
  });

  it('skips values that are not finite', () => {
    const counts = histogramOf([0, 1, NaN, Infinity, 0.5], 0, 1, 4);
    expect([...counts].reduce((a, b) => a + b, 0)).toBe(3);
  });
});
