/** The viewer's slider scales (viewer/panels/params/slider-scale.ts): logarithmic over three decades, linear below. */
import { describe, expect, it } from 'vitest';
import { isLogRange, numberFieldChars, sliderScale } from '../../viewer/panels/params/slider-scale.ts';

describe('sliderScale', () => {
  it('is logarithmic over three decades: each decade gets the same share of the track', () => {
    const scale = sliderScale({ type: 'number', minimum: 0.01, maximum: 100 });
    expect(scale.log).toBe(true);
    expect(scale.toSlider(0.01)).toBe(0);
    expect(scale.toSlider(0.1)).toBe(250);
    expect(scale.toSlider(1)).toBe(500);
    expect(scale.toSlider(100)).toBe(1000);
    expect(scale.fromSlider(250)).toBe(0.1);
    expect(scale.fromSlider(500)).toBe(1);
    expect(scale.fromSlider(0)).toBe(0.01);
    expect(scale.fromSlider(1000)).toBe(100);
    // Three significant digits between the decades.
    expect(scale.fromSlider(600)).toBe(2.51);
  });

  it('rounds integers to whole numbers', () => {
    const scale = sliderScale({ type: 'integer', minimum: 1000, maximum: 2_000_000 });
    expect(scale.log).toBe(true);
    for (const p of [1, 333, 777]) expect(Number.isInteger(scale.fromSlider(p))).toBe(true);
    expect(scale.fromSlider(scale.toSlider(150_000))).toBeCloseTo(150_000, -4);
  });

  it('stays linear below three decades, from zero, or without bounds', () => {
    expect(isLogRange({ type: 'number', minimum: 1, maximum: 999 })).toBe(false);
    expect(isLogRange({ type: 'number', minimum: 0, maximum: 1e6 })).toBe(false);
    expect(isLogRange({ type: 'number' })).toBe(false);
    const linear = sliderScale({ type: 'number', minimum: 0, maximum: 1 });
    expect(linear).toMatchObject({ log: false, min: 0, max: 1, step: 0.01 });
    expect(linear.fromSlider(0.37)).toBe(0.37);
  });
});

describe('numberFieldChars', () => {
  it('fits the longest of the bounds, the default and the value', () => {
    expect(numberFieldChars({ type: 'integer', minimum: 1000, maximum: 2_000_000, default: 150_000 })).toBe(7);
    expect(numberFieldChars({ type: 'number' }, 123456.789)).toBe(10);
    expect(numberFieldChars({ type: 'number', minimum: 0, maximum: 1 })).toBe(4);
  });
});
