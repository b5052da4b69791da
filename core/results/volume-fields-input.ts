/**
 * @module volume-fields-input
 * What an upload or a publish says of a `.npy` volume beyond its samples, from query text or
 * a JSON body: `axes` (`tczyx`, `czyx`, `tzyx`), `channels` (a JSON list of `{name, color,
 * window}` or names, or comma-separated names), `time_step`, `time_unit`, `vector` (`true`)
 * and the length `unit`. Read here into values of the right kinds; whether they fit the
 * array's shape is checked with it (volume-axes.ts).
 */
import { AxesFieldError } from './volume-axes.ts';

/** The fields as read, each present only when given. */
export interface VolumeFieldsInput {
  axes?: string;
  channels?: unknown[];
  time_step?: number;
  time_unit?: string;
  vector?: boolean;
  unit?: string;
}

/** The names read, in the order they are documented. */
export const VOLUME_FIELD_NAMES = ['axes', 'channels', 'time_step', 'time_unit', 'vector', 'unit'] as const;

const fail = (field: string, message: string): never => {
  throw new AxesFieldError(field, message);
};

function text(field: string, value: unknown): string {
  if (typeof value !== 'string' || value.length === 0 || value.length > 64) fail(field, `${field} must be a string of 1 to 64 characters`);
  return value as string;
}

function channelsOf(value: unknown): unknown[] {
  if (Array.isArray(value)) return value;
  if (typeof value !== 'string') return fail('channels', 'channels must be a list of {name, color, window} (JSON) or comma-separated names');
  if (value.trim().startsWith('[')) {
    try {
      return channelsOf(JSON.parse(value) as unknown);
    } catch (error) {
      if (error instanceof AxesFieldError) throw error;
      return fail('channels', `channels is not valid JSON: ${(error as Error).message}`);
    }
  }
  return value.split(',').map((name) => name.trim());
}

function numberOf(field: string, value: unknown): number {
  const n = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
  if (typeof n !== 'number' || !Number.isFinite(n)) fail(field, `${field} must be a number`);
  return n as number;
}

function flag(field: string, value: unknown): boolean {
  if (value === true || value === 'true' || value === '1') return true;
  if (value === false || value === 'false' || value === '0') return false;
  return fail(field, `${field} must be true or false`);
}

/**
 * The volume fields of a request's query or JSON body (absent or null: not given).
 * @throws AxesFieldError naming a field of the wrong kind.
 */
export function readVolumeFields(source: Record<string, unknown>): VolumeFieldsInput {
  const out: VolumeFieldsInput = {};
  const given = (name: string) => source[name] !== undefined && source[name] !== null && source[name] !== '';
  if (given('axes')) out.axes = text('axes', source.axes);
  if (given('channels')) out.channels = channelsOf(source.channels);
  if (given('time_step')) out.time_step = numberOf('time_step', source.time_step);
  if (given('time_unit')) out.time_unit = text('time_unit', source.time_unit);
  if (given('vector')) out.vector = flag('vector', source.vector);
  if (given('unit')) out.unit = text('unit', source.unit);
  return out;
}
