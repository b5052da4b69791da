/**
 * @module python-results
 * Results and inputs as they cross to and from a Python plugin process. A result frame's
 * blocks already lie in shared memory, so its arrays are views on them: nothing is copied and
 * nothing is passed over on the event loop. The process checked the values (lengths, finite
 * coordinates, indices in range) and sent the volume's value range; here only the sizes are
 * checked again, so a confused process cannot make the host read past a block.
 */
import { isDType, TYPED_ARRAYS, dtypeOf, type AnyTypedArray } from '../envelope/dtypes.ts';
import type { ResultType } from '../sdk/result-types.ts';
import type { StoredResult } from '../results/stored-result.ts';
import type { Frame } from './frame-codec.ts';
import { labelFieldsOf, LabelFieldError, readLabelFields } from '../results/label-fields.ts';
import { AxesFieldError, AXES_FIELD_NAMES, checkAxesFields, hasSteps, stepLayout } from '../results/volume-axes.ts';

/** A result frame that does not describe a result of its declared type. */
export class ResultFrameError extends Error {}

interface ArraySpec {
  field: string;
  dtype: string;
}

function fail(why: string): never {
  throw new ResultFrameError(why);
}

/** The frame's arrays by field name, each a typed array over its block. */
function arraysOf(frame: Frame): Map<string, AnyTypedArray> {
  const specs = (frame.header.arrays ?? []) as ArraySpec[];
  if (!Array.isArray(specs) || specs.length !== frame.blocks.length) fail('arrays and blocks disagree');
  const out = new Map<string, AnyTypedArray>();
  specs.forEach((spec, i) => {
    if (!isDType(spec.dtype)) fail(`unknown dtype ${String(spec.dtype)}`);
    const block = frame.blocks[i]!;
    const Ctor = TYPED_ARRAYS[spec.dtype];
    if (block.byteLength % Ctor.BYTES_PER_ELEMENT !== 0) fail(`${spec.field} is not a whole number of ${spec.dtype}`);
    out.set(spec.field, new Ctor(block.buffer as ArrayBuffer, block.byteOffset, block.byteLength / Ctor.BYTES_PER_ELEMENT));
  });
  return out;
}

function need<T extends AnyTypedArray>(arrays: Map<string, AnyTypedArray>, field: string, Ctor: new (...a: never[]) => T): T {
  const value = arrays.get(field);
  if (!(value instanceof Ctor)) fail(`${field} is missing or of the wrong type`);
  return value;
}

function numbers(value: unknown): number[] | undefined {
  return Array.isArray(value) && value.every((n) => typeof n === 'number' && Number.isFinite(n)) ? (value as number[]) : undefined;
}

/** What `read` answers; its refusal (a `Refusal`) is the frame's fault. */
function refusedAs<T>(Refusal: new (...args: never[]) => Error, read: () => T): T {
  try {
    return read();
  } catch (error) {
    if (error instanceof Refusal) fail(error.message);
    throw error;
  }
}

type StoredVolume = Extract<StoredResult, { type: 'volume' }>;

/**
 * A volume's time and channel fields, checked again, and the ranges the process worked out
 * (each channel's over every step, a vector field's largest magnitude), checked for size.
 */
function withAxes(volume: StoredVolume, meta: Record<string, unknown>): StoredVolume {
  const fields = refusedAs(AxesFieldError, () => checkAxesFields(meta, volume.shape));
  Object.assign(volume, fields);
  if (!hasSteps(fields)) return volume;
  const ranges = meta.channel_ranges;
  const { channels } = stepLayout(volume);
  const pairs = Array.isArray(ranges) ? ranges.map(numbers) : [];
  if (pairs.length !== channels || pairs.some((pair) => pair?.length !== 2)) fail(`channel_ranges must give ${channels} [min, max] pairs`);
  volume.channelRanges = pairs as [number, number][];
  if (fields.vector) {
    const m = meta.magnitude_max;
    if (typeof m !== 'number' || !Number.isFinite(m) || m < 0) fail('magnitude_max must be a finite number from 0');
    volume.magnitudeMax = m as number;
  }
  return volume;
}

/** The stored result a `result` frame carries. */
export function toStoredResult(frame: Frame, type: ResultType): StoredResult {
  const arrays = arraysOf(frame);
  const meta = (frame.header.meta ?? {}) as Record<string, unknown>;
  if (frame.header.type !== type) fail(`a ${String(frame.header.type)} result for a ${type} function`);
  if (type === 'mesh') {
    const vertices = need(arrays, 'vertices', Float32Array);
    const indices = need(arrays, 'indices', Uint32Array);
    if (vertices.length % 3 || indices.length % 3) fail('vertex or index count is not a multiple of 3');
    const result: StoredResult = { type: 'mesh', vertices, indices };
    const normals = arrays.get('normals');
    if (normals instanceof Float32Array && normals.length === vertices.length) result.normals = normals;
    const colors = arrays.get('colors');
    if ((colors instanceof Uint8Array || colors instanceof Float32Array) && colors.length === vertices.length) result.colors = colors;
    return result;
  }
  if (type === 'volume') {
    const data = arrays.get('data') ?? fail('data is missing');
    const shape = numbers(meta.shape) ?? fail('shape is missing');
    if (shape.reduce((a, b) => a * b, 1) !== data.length) fail('data does not fill the shape');
    if (meta.dtype !== dtypeOf(data)) fail('dtype does not match the data');
    const result = { type: 'volume', shape, dtype: meta.dtype, data } as StoredResult & { spacing?: number[]; origin?: number[]; unit?: string };
    const spacing = numbers(meta.spacing);
    const origin = numbers(meta.origin);
    const range = numbers(meta.value_range);
    if (spacing) result.spacing = spacing;
    if (origin) result.origin = origin;
    if (typeof meta.unit === 'string') result.unit = meta.unit;
    if (range && range.length === 2) result.valueRange = [range[0]!, range[1]!];
    // A segmentation's fields as the process sent them (it checked them; here they are read as any result's are).
    Object.assign(result, refusedAs(LabelFieldError, () => readLabelFields(meta, meta.dtype as string)));
    return withAxes(result as StoredVolume, meta);
  }
  if (type === 'point_cloud') {
    const points = need(arrays, 'points', Float32Array);
    if (points.length % 3) fail('point count is not a multiple of 3');
    const result: StoredResult = { type: 'point_cloud', points };
    const colors = arrays.get('colors');
    if ((colors instanceof Uint8Array || colors instanceof Float32Array) && (colors.length === points.length || colors.length === (points.length / 3) * 4))
      result.colors = colors;
    const scalars = arrays.get('scalars');
    if (scalars instanceof Float32Array && scalars.length === points.length / 3) result.scalars = scalars;
    return result;
  }
  const data = arrays.get('data') ?? fail('data is missing');
  const width = Number(meta.width);
  const height = Number(meta.height);
  const channels = Number(meta.channels) as 1 | 2 | 3 | 4;
  if (!(data instanceof Uint8Array || data instanceof Uint16Array || data instanceof Float32Array)) fail('image data must be uint8, uint16 or float32');
  if (width * height * channels !== data.length) fail('image data does not fill width × height × channels');
  return { type: 'image', width, height, channels, dtype: dtypeOf(data) as 'uint8' | 'uint16' | 'float32', data };
}

/** A volume input's time and channel fields, as the process's VolumeInput takes them. */
function axesOf(volume: StoredVolume): Record<string, unknown> {
  return Object.fromEntries(AXES_FIELD_NAMES.filter((name) => volume[name] !== undefined).map((name) => [name, volume[name]]));
}

/** An input result as the process receives it: a spec in the header and its arrays as blocks. */
export function inputSpec(param: string, result: StoredResult): { spec: Record<string, unknown>; blocks: ArrayBufferView[] } {
  const fields = (
    result.type === 'mesh'
      ? [['vertices', result.vertices], ['indices', result.indices], ['normals', result.normals], ['colors', result.colors]]
      : result.type === 'point_cloud'
        ? [['points', result.points], ['colors', result.colors], ['scalars', result.scalars]]
        : [['data', result.data]]
  ) as [string, AnyTypedArray | undefined][];
  const present = fields.filter((f): f is [string, AnyTypedArray] => f[1] !== undefined);
  const meta: Record<string, unknown> =
    result.type === 'volume'
      ? {
          shape: result.shape,
          dtype: result.dtype,
          ...(result.spacing ? { spacing: result.spacing } : {}),
          ...(result.origin ? { origin: result.origin } : {}),
          ...labelFieldsOf(result),
          ...axesOf(result),
        }
      : result.type === 'image'
        ? { width: result.width, height: result.height, channels: result.channels, dtype: dtypeOf(result.data as AnyTypedArray) }
        : {};
  return {
    spec: { param, type: result.type, meta, arrays: present.map(([field, array]) => ({ field, dtype: dtypeOf(array) })) },
    blocks: present.map(([, array]) => array),
  };
}
