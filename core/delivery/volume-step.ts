/**
 * @module volume-step
 * Which step of a volume with time or channels a delivery sends, checked against the result
 * once it is known: `t` (default 0) within the time steps, `c` (default 0) within the
 * channels, `magnitude` and `rgb` only for a vector field. A value that does not fit is a
 * catalogued 400 naming `t`, `c` or `dtype`. The options come back in their one spelling (the
 * first step and channel left out, an axis the result lacks left out), so the same step with
 * the same delivery is the same variant and the same blob id however it was asked for; the
 * first step of the first channel is the result's default form.
 */
import { createHostError } from '../errors.ts';
import type { StoredResult } from '../results/stored-result.ts';
import { plural } from '../formats/decoded-size.ts';
import { countsOf, hasSteps } from '../results/volume-axes.ts';
import type { DeliveryOptions } from './delivery-options.ts';
import { invalidDeliveryOption } from './parse-delivery.ts';

function withoutStep(options: DeliveryOptions): DeliveryOptions {
  if (options.t === undefined && options.c === undefined) return options;
  const { t: _t, c: _c, ...rest } = options;
  return rest;
}

/** The step `t` of a result with `steps` steps (`hasAxis`: whether it has a time axis at all). */
function checkT(t: number | undefined, steps: number, hasAxis: boolean): void {
  if (t === undefined || t < steps) return;
  const has = hasAxis ? `the result has ${plural(steps, 'time step')} (t from 0 to ${steps - 1})` : 'the result has no time axis (t=0 only)';
  throw invalidDeliveryOption('t', t, `a step the result has: ${has}`);
}

function checkC(options: DeliveryOptions, channels: number, hasAxis: boolean, vector: boolean): void {
  const { c } = options;
  if (c === 'magnitude' || c === 'rgb') {
    if (!vector) throw createHostError('SPC_ERR_DELIVERY_OPTION_MISFIT', 'c', `c=${c} needs a vector field (a result with vector: true and 3 channels)`);
    if (c === 'rgb' && options.dtype !== undefined && options.dtype !== 'uint8') {
      throw createHostError('SPC_ERR_DELIVERY_OPTION_MISFIT', 'dtype', `c=rgb is delivered as uint8, not ${options.dtype}`);
    }
    return;
  }
  if (c === undefined || c < channels) return;
  const has = hasAxis ? `the result has ${plural(channels, 'channel')} (c from 0 to ${channels - 1})` : 'the result has no channel axis (c=0 only)';
  throw invalidDeliveryOption('c', c, `a channel the result has: ${has}`);
}

/**
 * The delivery with `t` and `c` checked against `result` and written in their one spelling.
 * @throws HostError SPC_ERR_DELIVERY_OPTION_INVALID (a step or channel out of range) or
 * SPC_ERR_DELIVERY_OPTION_MISFIT (a vector mode on a field that is not a vector, rgb retyped).
 */
export function stepDelivery(result: StoredResult, options: DeliveryOptions): DeliveryOptions {
  if (result.type !== 'volume') return options;
  const axes = hasSteps(result) ? result.axes! : 'zyx';
  const { steps, channels } = countsOf(axes, result.shape);
  checkT(options.t, steps, axes.includes('t'));
  checkC(options, channels, axes.includes('c'), result.vector === true);
  const rest = withoutStep(options);
  const t = options.t ?? 0;
  const c = options.c ?? 0;
  if (t === 0 && c === 0) return rest;
  return { ...rest, ...(t === 0 ? {} : { t }), ...(c === 0 ? {} : { c }) };
}
