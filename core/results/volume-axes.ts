/**
 * @module volume-axes
 * The axes of a volume beyond space: time and channels (NGFF order `tczyx`, `czyx`, `tzyx`),
 * the fields that describe them (`channels`, `time_step`, `time_unit`, `vector`) and the
 * checks every way into the host makes of them (a plugin's result, a Python result, a `.npy`
 * upload or publish, a sidecar). Spatial fields stay spatial: `spacing` and `origin` of a
 * volume with time or channels are three values. No pass over the samples here.
 */
import type { VolumeResult } from '../sdk/result-types.ts';

/** The axes names a volume may declare. */
export type VolumeAxes = NonNullable<VolumeResult['axes']>;

/** One channel as a result describes it. */
export type VolumeChannel = NonNullable<VolumeResult['channels']>[number];

export const VOLUME_AXES: readonly VolumeAxes[] = ['zyx', 'czyx', 'tzyx', 'tczyx'];

/** The names of the fields a volume with time or channels carries, in the order they are written. */
export const AXES_FIELD_NAMES = ['axes', 'channels', 'time_step', 'time_unit', 'vector'] as const;

/** Those fields, as checked. */
export type AxesFields = Pick<VolumeResult, (typeof AXES_FIELD_NAMES)[number]>;

/** A field that does not describe the volume; `field` names it. */
export class AxesFieldError extends Error {
  readonly field: string;
  constructor(field: string, message: string) {
    super(message);
    this.field = field;
  }
}

const fail = (field: string, message: string): never => {
  throw new AxesFieldError(field, message);
};

const COLOR = /^#[0-9a-fA-F]{6}$/;
const MAX_TEXT = 256;

function isAxes(value: unknown): value is VolumeAxes {
  return typeof value === 'string' && (VOLUME_AXES as readonly string[]).includes(value);
}

/**
 * The axes of `shape`: as declared, else `tczyx` for five dimensions (four are ambiguous);
 * undefined for space only.
 */
function axesOf(raw: unknown, shape: readonly number[]): VolumeAxes | undefined {
  if ((raw === undefined || raw === null) && shape.length === 4)
    fail('axes', `a volume of 4 dimensions [${shape.join(', ')}] needs axes 'czyx' (channels) or 'tzyx' (time)`);
  if (raw === undefined || raw === null) return shape.length === 5 ? 'tczyx' : undefined;
  if (!isAxes(raw)) return fail('axes', `axes must be one of ${VOLUME_AXES.join(', ')}, got ${JSON.stringify(raw)}`);
  if (raw.length !== shape.length) {
    fail('axes', `axes '${raw}' names ${raw.length} axes but the shape [${shape.join(', ')}] has ${shape.length}`);
  }
  return raw === 'zyx' ? undefined : raw;
}

function windowOf(value: unknown, at: string): [number, number] {
  const ok = Array.isArray(value) && value.length === 2 && value.every((v) => typeof v === 'number' && Number.isFinite(v));
  if (!ok) fail('channels', `${at}.window must be two finite numbers [lo, hi]`);
  const [lo, hi] = value as [number, number];
  if (!(lo < hi)) fail('channels', `${at}.window must have lo below hi, got [${lo}, ${hi}]`);
  return [lo, hi];
}

function channelOf(value: unknown, index: number): VolumeChannel {
  const at = `channels[${index}]`;
  if (typeof value === 'string') return { name: value.slice(0, MAX_TEXT) };
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return fail('channels', `${at} must be an object {name, color, window}`);
  const { name, color, window, ...rest } = value as Record<string, unknown>;
  const unknown = Object.keys(rest)[0];
  if (unknown !== undefined) fail('channels', `${at} has an unknown field '${unknown}' (fields: name, color, window)`);
  const channel: VolumeChannel = {};
  if (name !== undefined && name !== null) {
    if (typeof name !== 'string' || name.length > MAX_TEXT) fail('channels', `${at}.name must be a string of at most ${MAX_TEXT} characters`);
    channel.name = name as string;
  }
  if (color !== undefined && color !== null) {
    if (typeof color !== 'string' || !COLOR.test(color)) fail('channels', `${at}.color must be a colour #rrggbb, got ${JSON.stringify(color)}`);
    channel.color = (color as string).toLowerCase();
  }
  if (window !== undefined && window !== null) channel.window = windowOf(window, at);
  return channel;
}

/** How many channels and steps the axes give `shape` (1 where an axis is absent). */
export function countsOf(axes: VolumeAxes | undefined, shape: readonly number[]): { steps: number; channels: number } {
  const named = axes ?? 'zyx';
  const t = named.indexOf('t');
  const c = named.indexOf('c');
  return { steps: t < 0 ? 1 : shape[t]!, channels: c < 0 ? 1 : shape[c]! };
}

/**
 * The time and channel fields of a volume of `shape`, checked (only those present are
 * returned; `axes` of space only is left out, so such a volume is as it always was).
 * @throws AxesFieldError naming the field that does not fit.
 */
export function checkAxesFields(raw: Record<string, unknown>, shape: readonly number[]): AxesFields {
  const axes = axesOf(raw.axes, shape);
  const fields: AxesFields = axes ? { axes } : {};
  const { channels } = countsOf(axes, shape);
  if (axes) {
    for (const name of ['spacing', 'origin']) {
      const value = raw[name];
      if (value !== undefined && value !== null && (value as ArrayLike<number>).length !== 3) {
        fail(name, `${name} of a volume with axes '${axes}' gives the three spatial axes (z, y, x), not ${(value as ArrayLike<number>).length} values`);
      }
    }
  }
  if (raw.channels !== undefined && raw.channels !== null) {
    if (!Array.isArray(raw.channels)) fail('channels', 'channels must be a list of {name, color, window}');
    const list = (raw.channels as unknown[]).map(channelOf);
    if (list.length !== channels)
      fail('channels', `channels lists ${list.length} channel(s) but the volume has ${channels}${axes?.includes('c') ? '' : ' (no c axis)'}`);
    fields.channels = list;
  }
  if (raw.time_step !== undefined && raw.time_step !== null) {
    const step = raw.time_step;
    if (typeof step !== 'number' || !Number.isFinite(step) || step <= 0) fail('time_step', `time_step must be a number above 0, got ${JSON.stringify(step)}`);
    if (!axes?.includes('t')) fail('time_step', 'time_step needs a t axis (axes tzyx or tczyx)');
    fields.time_step = step as number;
  }
  if (raw.time_unit !== undefined && raw.time_unit !== null) {
    if (typeof raw.time_unit !== 'string' || raw.time_unit.length === 0 || raw.time_unit.length > 64)
      fail('time_unit', 'time_unit must be a string of 1 to 64 characters');
    fields.time_unit = raw.time_unit as string;
  }
  if (raw.vector !== undefined && raw.vector !== null && raw.vector !== false) {
    if (raw.vector !== true) fail('vector', `vector must be true or false, got ${JSON.stringify(raw.vector)}`);
    if (!axes?.includes('c') || channels !== 3)
      fail('vector', `vector: true needs a c axis of 3 components (x, y, z); this volume has ${axes?.includes('c') ? channels : 'no c axis'}`);
    fields.vector = true;
  }
  return fields;
}

/** Whether a volume has a time or channel axis, so it is served one 3-D step at a time. */
export function hasSteps(volume: { axes?: VolumeAxes | undefined }): boolean {
  return volume.axes !== undefined && volume.axes !== 'zyx';
}

/** How a volume with steps lies in memory: steps × channels blocks of z·y·x samples each. */
export interface StepLayout {
  steps: number;
  channels: number;
  /** The spatial shape [z, y, x]. */
  space: [number, number, number];
  /** Samples in one 3-D block. */
  voxels: number;
}

/** The layout of a volume (a volume of space only is one step of one channel). */
export function stepLayout(volume: { axes?: VolumeAxes | undefined; shape: readonly number[] }): StepLayout {
  const { steps, channels } = countsOf(volume.axes, volume.shape);
  const space = volume.shape.slice(-3) as [number, number, number];
  while (space.length < 3) space.unshift(1);
  return { steps, channels, space, voxels: space.reduce((a, b) => a * b, 1) };
}

/** Each axis's length by name, in the axes' order (`{t: 301, c: 3, z: 20, y: 100, x: 100}`). */
export function axisSizes(volume: { axes?: VolumeAxes | undefined; shape: readonly number[] }): Record<string, number> {
  const names = volume.axes ?? 'zyx';
  return Object.fromEntries([...names].map((name, i) => [name, volume.shape[i]!]));
}

/** The sample offset of the 3-D block of step `t`, channel `c`. */
export function blockOffset(layout: StepLayout, t: number, c: number): number {
  return (t * layout.channels + c) * layout.voxels;
}

/** Which channel a step shows: an index, or for a vector field its magnitude or direction colours. */
export type StepChannel = number | 'magnitude' | 'rgb';

/**
 * A delivered step of a volume with time or channels: which one, the sizes of every axis of
 * the whole (a client builds its time slider and channel list from the first step it reads),
 * and the descriptive fields of the whole.
 */
export interface VolumeStep extends Omit<AxesFields, 'axes'> {
  t: number;
  c: StepChannel;
  sizes: Record<string, number>;
}
