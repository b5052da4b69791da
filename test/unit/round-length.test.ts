/**
 * The scale bar's length: the longest round length (1, 2, 5 × 10^n) that fits, its pixels
 * between 40% and 100% of the room given whatever the zoom, and its label in the result's unit
 * (or "units" when it states none).
 */
import { describe, expect, it } from 'vitest';
import { formatLength, roundLength, scaleBarLength } from '../../core/wire/round-length.ts';

describe('roundLength', () => {
  it('takes the longest of 1, 2 and 5 times a power of ten at most the limit', () => {
    const cases: [number, number][] = [
      [1, 1], [1.9, 1], [2, 2], [4.99, 2], [5, 5], [9.99, 5], [10, 10], [149, 100], [150, 100], [250, 200],
      [0.75, 0.5], [0.0031, 0.002], [1000, 1000], [1e-9, 1e-9], [3.7e7, 2e7],
    ];
    for (const [limit, want] of cases) expect(roundLength(limit)?.value, `limit ${limit}`).toBe(want);
  });

  it('names the mantissa and the power of ten', () => {
    expect(roundLength(0.07)).toEqual({ value: 0.05, mantissa: 5, exponent: -2 });
    expect(roundLength(260)).toEqual({ value: 200, mantissa: 2, exponent: 2 });
  });

  it('gives nothing for a limit that is not a positive finite number', () => {
    for (const limit of [0, -3, Number.NaN, Number.POSITIVE_INFINITY]) expect(roundLength(limit)).toBeNull();
  });
});

describe('scaleBarLength', () => {
  it('keeps the bar between 40% and 100% of its room at every zoom', () => {
    for (let step = 0; step < 400; step++) {
      const unitsPerPixel = 10 ** (-6 + step * 0.03);
      const bar = scaleBarLength(unitsPerPixel, 150)!;
      expect(bar.pixels).toBeLessThanOrEqual(150 + 1e-9);
      expect(bar.pixels).toBeGreaterThanOrEqual(60 - 1e-9);
      expect(Math.abs((bar.pixels * unitsPerPixel) / bar.value - 1)).toBeLessThan(1e-12);
    }
  });

  it('changes to another round length as the view zooms out', () => {
    expect(scaleBarLength(0.1, 150)).toMatchObject({ value: 10, pixels: 100 });
    expect(scaleBarLength(0.5, 150)).toMatchObject({ value: 50, pixels: 100 });
    expect(scaleBarLength(0.8, 150)).toMatchObject({ value: 100, pixels: 125 });
  });
});

describe('formatLength', () => {
  it('says the number and the unit, "units" when the result states none', () => {
    expect(formatLength(roundLength(12)!, 'mm')).toBe('10 mm');
    expect(formatLength(roundLength(700)!, 'µm')).toBe('500 µm');
    expect(formatLength(roundLength(0.3)!, null)).toBe('0.2 units');
    expect(formatLength(roundLength(0.3)!, '')).toBe('0.2 units');
    expect(formatLength(roundLength(6e-9)!, 'm')).toBe('5e-9 m');
    expect(formatLength(roundLength(0.000002)!, 'm')).toBe('0.000002 m');
  });
});
