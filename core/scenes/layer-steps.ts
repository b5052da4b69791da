/**
 * @module layer-steps
 * A layer's `t` and `channels` against the result it shows. The shape checks of check-display.ts
 * know nothing of the result; once it is known, a step past its last one or more channel
 * entries than it has channels is a 400 naming the field. A change made while the result was
 * not known yet (a new layer, a new source still computing, a result the host no longer holds)
 * is taken as it comes and fitted when the result is set: `t` brought down to the last step,
 * the extra channel entries dropped, so a scene never names a step or channel it cannot show.
 */
import type { LayerDisplay, SceneLayer } from '../wire/scene-types.ts';
import type { StoredResult } from '../results/stored-result.ts';
import { plural } from '../formats/decoded-size.ts';
import { countsOf, hasSteps, type StepLayout } from '../results/volume-axes.ts';
import { bad } from './check-display.ts';

/** How many time steps and channels a result has (one of each without those axes). */
export type StepCounts = Pick<StepLayout, 'steps' | 'channels'>;

/** The counts of a result that is not a volume: no time, no channels. */
export const SINGLE_STEP: StepCounts = { steps: 1, channels: 1 };

export function stepCountsOf(result: StoredResult): StepCounts {
  if (result.type !== 'volume') return SINGLE_STEP;
  return countsOf(hasSteps(result) ? result.axes : undefined, result.shape);
}

/** The fields of a layer (or of a change to one) that its result bounds; null: back to the default. */
export type StepFields = { t?: number | null; channels?: LayerDisplay['channels'] | null };

/** Whether a layer (or a change) names a step or channels, which its result bounds. */
export function namesSteps(display: StepFields): boolean {
  return typeof display.t === 'number' || Array.isArray(display.channels);
}

/**
 * Checks the `t` and `channels` a request gives (null: back to the default, always fine)
 * against `counts`; `path` names the layer (`layer`, `layers[2]`).
 * @throws SPC_ERR_SCENE_INVALID naming `<path>.t` or `<path>.channels`.
 */
export function checkLayerSteps(display: StepFields, counts: StepCounts, path: string): void {
  const { t, channels } = display;
  if (typeof t === 'number' && t >= counts.steps) {
    const has = counts.steps > 1 ? `which has ${plural(counts.steps, 'time step')} (t from 0 to ${counts.steps - 1})` : 'which has no time axis (t=0 only)';
    throw bad(`${path}.t`, `must be a step of the layer's result, ${has}, got ${t}`);
  }
  if (Array.isArray(channels) && channels.length > counts.channels)
    throw bad(`${path}.channels`, `lists ${plural(channels.length, 'channel')}, but the layer's result has ${plural(counts.channels, 'channel')}`);
}

/** `layer` with its `t` and `channels` brought within `counts`; the same object when they are. */
export function fitLayerSteps(layer: SceneLayer, counts: StepCounts): SceneLayer {
  const tFits = layer.t === undefined || layer.t < counts.steps;
  const channelsFit = layer.channels === undefined || layer.channels.length <= counts.channels;
  if (tFits && channelsFit) return layer;
  return {
    ...layer,
    ...(tFits ? {} : { t: counts.steps - 1 }),
    ...(channelsFit ? {} : { channels: layer.channels!.slice(0, counts.channels) }),
  };
}
