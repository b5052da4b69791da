/**
 * @module volume-axes-info
 * What a volume answer says of its time and channels, read from an envelope preamble or the
 * JSON typed result: the whole array's `axes`, `channels`, `time_step`, `time_unit`, `vector`
 * and the length `unit` of its spacing, or for one step of it (`/data`) which step (`t`, `c`)
 * and the `sizes` of every axis. Fields that are absent or malformed are left out: an answer of a plain volume reads
 * as it always did.
 */
import type { VolumeAxes, VolumeAxesInfo, VolumeChannel } from '../wire/scene-types.ts';

const AXES: readonly string[] = ['zyx', 'czyx', 'tzyx', 'tczyx'];

function sizesOf(value: unknown): Record<string, number> | null {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return null;
  const entries = Object.entries(value as Record<string, unknown>);
  return entries.every(([, n]) => typeof n === 'number' && Number.isInteger(n)) ? (Object.fromEntries(entries) as Record<string, number>) : null;
}

/** The time and channel fields of `fields` (a preamble or a typed result). */
export function readAxesInfo(fields: Record<string, unknown>): VolumeAxesInfo {
  const info: VolumeAxesInfo = {};
  if (typeof fields.axes === 'string' && AXES.includes(fields.axes)) info.axes = fields.axes as VolumeAxes;
  if (Array.isArray(fields.channels)) info.channels = fields.channels.filter((c): c is VolumeChannel => typeof c === 'object' && c !== null);
  if (typeof fields.time_step === 'number') info.time_step = fields.time_step;
  if (typeof fields.time_unit === 'string') info.time_unit = fields.time_unit;
  if (fields.vector === true) info.vector = true;
  if (typeof fields.unit === 'string' && fields.unit !== '') info.unit = fields.unit;
  const sizes = sizesOf(fields.sizes);
  const c = fields.c;
  if (sizes && typeof fields.t === 'number' && (typeof c === 'number' || c === 'magnitude' || c === 'rgb')) info.step = { t: fields.t, c, sizes };
  return info;
}
