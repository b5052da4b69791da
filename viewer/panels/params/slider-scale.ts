/**
 * @module slider-scale
 * How a bounded number's slider maps to its values. A range of three decades or more with a
 * positive minimum (0.01 to 100, 1,000 to 2,000,000) is logarithmic: each decade gets the
 * same share of the track, so small values can be reached as easily as large ones; the value
 * is rounded to three significant digits (integers to whole numbers). Other ranges are linear,
 * stepping as `sliderStep` says.
 */
import type { ParameterProperty } from '../../../core/wire/wire-types.ts';
import { sliderStep } from './param-check.ts';

/** The track's attributes and the two conversions. */
export interface SliderScale {
  log: boolean;
  min: number;
  max: number;
  step: number;
  /** The track position for `value`. */
  toSlider(value: number): number;
  /** The value at track position `position`. */
  fromSlider(position: number): number;
}

/** Track positions of a logarithmic slider. */
const LOG_STEPS = 1000;

/** True when `prop`'s bounds span three decades or more above zero. */
export function isLogRange(prop: ParameterProperty): boolean {
  const { minimum: lo, maximum: hi } = prop;
  return typeof lo === 'number' && typeof hi === 'number' && lo > 0 && hi / lo >= 1000;
}

/** The scale of `prop`'s slider (its `minimum` and `maximum` are set). */
export function sliderScale(prop: ParameterProperty): SliderScale {
  const lo = prop.minimum ?? 0;
  const hi = prop.maximum ?? 1;
  if (!isLogRange(prop)) {
    return { log: false, min: lo, max: hi, step: sliderStep(prop), toSlider: (v) => v, fromSlider: (p) => p };
  }
  const decades = Math.log10(hi / lo);
  return {
    log: true,
    min: 0,
    max: LOG_STEPS,
    step: 1,
    toSlider: (value) => Math.round((Math.log10(Math.max(lo, Math.min(hi, value)) / lo) / decades) * LOG_STEPS),
    fromSlider(position) {
      if (position <= 0) return lo;
      if (position >= LOG_STEPS) return hi;
      const raw = lo * 10 ** ((position / LOG_STEPS) * decades);
      const value = prop.type === 'integer' ? Math.round(raw) : Number(raw.toPrecision(3));
      return Math.max(lo, Math.min(hi, value));
    },
  };
}

/** Characters a number field needs for any value of `prop` (its bounds, default, and `value`). */
export function numberFieldChars(prop: ParameterProperty, value?: unknown): number {
  const texts = [prop.minimum, prop.maximum, prop.default, value]
    .filter((v): v is number => typeof v === 'number')
    .map((v) => String(Number(v.toPrecision(12))));
  return Math.max(4, ...texts.map((t) => t.length));
}
