/**
 * @module normalize-result
 * Checks what a plugin function returned against its declared return type and puts every
 * array in shared memory. Runs in the worker thread: the checks and copies are passes over the
 * data and must not run on the host's event loop.
 *
 * Why shared memory rather than transferring: a cached result is read concurrently by many
 * requests (envelopes written to sockets, JSON encodings on the encode thread). Shared buffers
 * cross threads by reference, so neither the return to the host nor any later encoding copies a
 * byte; a transferred buffer would have to be copied or lent out for each encoding instead.
 *
 * What a volume with steps keeps about its samples, worked out once where the result is
 * checked (a worker thread, a plugin process or the encode thread): each channel's finite
 * [min, max] over every step, so a step delivered as integers maps the same value to the
 * same integer whatever the step (playback does not flicker), and for a vector field the
 * largest magnitude m, which maps components from [-m, m] for direction colours.
 */
import type { ResultType } from '../sdk/result-types.ts';
import { TYPED_ARRAYS, dtypeOf, isDType, type AnyTypedArray, type DType } from '../envelope/dtypes.ts';
import { valueRange } from '../envelope/value-range.ts';
import { firstNonFinite } from '../envelope/first-non-finite.ts';
import type { StoredResult } from './stored-result.ts';
import { LabelFieldError, readLabelFields } from './label-fields.ts';
import { AxesFieldError, blockOffset, checkAxesFields, hasSteps, stepLayout, type StepLayout } from './volume-axes.ts';
import { rethrown } from './rethrown.ts';

interface VolumeStats {
  /** Finite [min, max] over every sample (absent when there is none). */
  valueRange?: [number, number];
  /** Per channel, finite [min, max] over every step ([0, 0] for a channel with none). */
  channelRanges: [number, number][];
  /** Vector fields: the largest finite magnitude over every voxel of every step. */
  magnitudeMax?: number;
}

/** A volume's samples, whose blocks are read as views. */
type Samples = ArrayLike<number> & { subarray(a: number, b: number): ArrayLike<number> };

/** Each channel's range over every step, and the whole volume's from them (one pass). */
function rangesOf(data: Samples, layout: StepLayout): { ranges: [number, number][]; all?: [number, number] } {
  const lows = new Array<number>(layout.channels).fill(Infinity);
  const highs = new Array<number>(layout.channels).fill(-Infinity);
  for (let t = 0; t < layout.steps; t++) {
    for (let c = 0; c < layout.channels; c++) {
      const start = blockOffset(layout, t, c);
      const range = valueRange(data.subarray(start, start + layout.voxels));
      if (!range) continue;
      lows[c] = Math.min(lows[c]!, range[0]);
      highs[c] = Math.max(highs[c]!, range[1]);
    }
  }
  const ranges = lows.map((lo, c): [number, number] => (lo <= highs[c]! ? [lo, highs[c]!] : [0, 0]));
  const lo = Math.min(...lows);
  const hi = Math.max(...highs);
  return { ranges, ...(lo <= hi ? { all: [lo, hi] as [number, number] } : {}) };
}

/** The largest finite |v| of a field whose channels 0, 1, 2 are its components. */
function magnitudeMaxOf(data: ArrayLike<number>, layout: StepLayout): number {
  let top = 0;
  for (let t = 0; t < layout.steps; t++) {
    const x0 = blockOffset(layout, t, 0);
    const y0 = blockOffset(layout, t, 1);
    const z0 = blockOffset(layout, t, 2);
    for (let i = 0; i < layout.voxels; i++) {
      const x = data[x0 + i]!;
      const y = data[y0 + i]!;
      const z = data[z0 + i]!;
      const squared = x * x + y * y + z * z;
      // NaN and infinities fail the comparison's finite test and are passed over.
      if (squared > top && squared < Infinity) top = squared;
    }
  }
  return Math.sqrt(top);
}

/** The stats of a volume's samples laid out as `layout`. */
function volumeStats(data: Samples, layout: StepLayout, vector: boolean): VolumeStats {
  const { ranges, all } = rangesOf(data, layout);
  const stats: VolumeStats = { channelRanges: ranges };
  if (all) stats.valueRange = all;
  if (vector) stats.magnitudeMax = magnitudeMaxOf(data, layout);
  return stats;
}

export class ResultShapeError extends Error {}

function fail(message: string): never {
  throw new ResultShapeError(message);
}

function isTypedArray(value: unknown): value is AnyTypedArray {
  return ArrayBuffer.isView(value) && !(value instanceof DataView);
}

/** A typed array of `dtype` holding `value` (typed or plain array), backed by shared memory. */
function toShared(value: unknown, dtype: DType, field: string): AnyTypedArray {
  const Ctor = TYPED_ARRAYS[dtype];
  if (isTypedArray(value)) {
    if (value.buffer instanceof SharedArrayBuffer && value instanceof Ctor) return value;
    return fromArray(value, dtype);
  }
  if (Array.isArray(value)) {
    if (!value.every((v) => typeof v === 'number')) fail(`${field} must hold numbers`);
    return fromArray(value as number[], dtype);
  }
  return fail(`${field} must be a typed array (got ${value === null ? 'null' : typeof value})`);
}

function fromArray(values: ArrayLike<number>, dtype: DType): AnyTypedArray {
  const Ctor = TYPED_ARRAYS[dtype] as unknown as { new (buffer: ArrayBufferLike): AnyTypedArray; BYTES_PER_ELEMENT: number };
  const out = new Ctor(new SharedArrayBuffer(values.length * Ctor.BYTES_PER_ELEMENT));
  (out as Float64Array).set(values);
  return out;
}

function expectType(value: unknown, wanted: readonly (new (...args: never[]) => unknown)[], field: string): void {
  if (isTypedArray(value) && !wanted.some((C) => value instanceof C)) {
    fail(`${field} must be a ${wanted.map((C) => C.name).join(' or ')}, got ${value.constructor.name}`);
  }
}

function checkFinite(array: ArrayLike<number>, field: string): void {
  const at = firstNonFinite(array);
  if (at >= 0) fail(`${field}[${at}] is not a finite number`);
}

function numberList(value: unknown, field: string): number[] | undefined {
  if (value === undefined || value === null) return undefined;
  if (!Array.isArray(value) && !isTypedArray(value)) fail(`${field} must be a list of numbers`);
  const list = Array.from(value as ArrayLike<number>);
  if (!list.every((n) => typeof n === 'number' && Number.isFinite(n))) fail(`${field} must hold finite numbers`);
  return list;
}

/**
 * Per-item colours (bytes or floats), `perItem` values each; undefined when absent. Meshes
 * take RGB, point clouds RGB or RGBA.
 */
function colorsOf(value: unknown, count: number, perItem: number[], item: string): Uint8Array | Float32Array | undefined {
  if (value === undefined || value === null) return undefined;
  expectType(value, [Uint8Array, Float32Array, Uint8ClampedArray], 'colors');
  const colors = toShared(value, value instanceof Float32Array ? 'float32' : 'uint8', 'colors') as Uint8Array | Float32Array;
  if (!perItem.some((k) => colors.length === count * k)) {
    fail(`colors length ${colors.length} is not ${perItem.join(' or ')} per ${item} for ${count} ${item === 'vertex' ? 'vertices' : `${item}s`}`);
  }
  return colors;
}

function normalizeMesh(r: Record<string, unknown>): StoredResult {
  expectType(r.vertices, [Float32Array], 'vertices');
  expectType(r.indices, [Uint32Array, Uint16Array, Uint8Array, Int32Array], 'indices');
  const vertices = toShared(r.vertices, 'float32', 'vertices') as Float32Array;
  const indices = toShared(r.indices, 'uint32', 'indices') as Uint32Array;
  if (vertices.length % 3 !== 0) fail(`vertices length ${vertices.length} is not a multiple of 3`);
  if (indices.length % 3 !== 0) fail(`indices length ${indices.length} is not a multiple of 3`);
  checkFinite(vertices, 'vertices');
  const vertexCount = vertices.length / 3;
  for (let i = 0; i < indices.length; i++) {
    if (indices[i]! >= vertexCount) fail(`indices[${i}] = ${indices[i]} is out of range for ${vertexCount} vertices`);
  }
  const result: StoredResult = { type: 'mesh', vertices, indices };
  if (r.normals !== undefined && r.normals !== null) {
    expectType(r.normals, [Float32Array], 'normals');
    const normals = toShared(r.normals, 'float32', 'normals') as Float32Array;
    if (normals.length > 0 && normals.length !== vertices.length) {
      fail(`normals length ${normals.length} does not match vertices length ${vertices.length}`);
    }
    if (normals.length > 0) result.normals = normals;
  }
  const colors = colorsOf(r.colors, vertexCount, [3], 'vertex');
  if (colors) result.colors = colors;
  return result;
}

function normalizeVolume(r: Record<string, unknown>, scanned?: [number, number] | null): StoredResult {
  const shape = numberList(r.shape, 'shape');
  if (!shape || shape.length === 0 || shape.some((n) => !Number.isInteger(n) || n < 0)) fail('shape must be a list of non-negative integers');
  const dtype = r.dtype ?? (isTypedArray(r.data) ? dtypeOf(r.data) : undefined);
  if (!isDType(dtype)) fail(`unsupported volume dtype ${JSON.stringify(dtype)}`);
  if (isTypedArray(r.data) && dtypeOf(r.data) !== dtype) fail(`data is a ${r.data.constructor.name} but dtype is ${dtype}`);
  const data = toShared(r.data, dtype, 'data');
  const elements = shape.reduce((a, b) => a * b, 1);
  if (data.length !== elements) fail(`data holds ${data.length} values, shape ${JSON.stringify(shape)} needs ${elements}`);
  const result = { type: 'volume', shape, dtype, data } as StoredResult & { spacing?: number[]; origin?: number[]; unit?: string };
  const spacing = numberList(r.spacing, 'spacing');
  const origin = numberList(r.origin, 'origin');
  if (spacing) result.spacing = spacing;
  if (origin) result.origin = origin;
  if (r.unit !== undefined && r.unit !== null) {
    if (typeof r.unit !== 'string' || r.unit.length > 64) fail('unit must be a string of at most 64 characters');
    result.unit = r.unit;
  }
  const axes = rethrown(() => checkAxesFields(r, shape), AxesFieldError, (error) => new ResultShapeError(error.message));
  Object.assign(result, axes);
  if (hasSteps(axes)) return Object.assign(result, volumeStats(data, stepLayout({ ...axes, shape }), axes.vector === true));
  const range = scanned === undefined ? valueRange(data) : scanned;
  if (range) result.valueRange = range;
  Object.assign(result, rethrown(() => readLabelFields(r, dtype), LabelFieldError, (error) => new ResultShapeError(error.message)));
  return result;
}

function normalizePointCloud(r: Record<string, unknown>): StoredResult {
  expectType(r.points, [Float32Array], 'points');
  const points = toShared(r.points, 'float32', 'points') as Float32Array;
  if (points.length % 3 !== 0) fail(`points length ${points.length} is not a multiple of 3`);
  checkFinite(points, 'points');
  const n = points.length / 3;
  const result: StoredResult = { type: 'point_cloud', points };
  const colors = colorsOf(r.colors, n, [3, 4], 'point');
  if (colors) result.colors = colors;
  if (r.scalars !== undefined && r.scalars !== null) {
    const scalars = toShared(r.scalars, 'float32', 'scalars') as Float32Array;
    if (scalars.length !== n) fail(`scalars length ${scalars.length} does not match ${n} points`);
    result.scalars = scalars;
  }
  return result;
}

const IMAGE_DTYPES = ['uint8', 'uint16', 'float32'] as const;

function normalizeImage(r: Record<string, unknown>): StoredResult {
  const { width, height, channels } = r;
  for (const [name, v] of Object.entries({ width, height })) {
    if (typeof v !== 'number' || !Number.isInteger(v) || v <= 0) fail(`${name} must be a positive integer`);
  }
  if (channels !== 1 && channels !== 2 && channels !== 3 && channels !== 4) fail('channels must be 1, 2, 3 or 4');
  const dtype = (r.dtype ?? (isTypedArray(r.data) ? dtypeOf(r.data) : 'uint8')) as DType;
  if (!(IMAGE_DTYPES as readonly string[]).includes(dtype)) fail(`unsupported image dtype ${JSON.stringify(dtype)}`);
  const data = toShared(r.data, dtype, 'data') as Uint8Array | Uint16Array | Float32Array;
  const expected = (width as number) * (height as number) * channels;
  if (data.length !== expected) fail(`data holds ${data.length} values, ${width}x${height}x${channels} needs ${expected}`);
  return { type: 'image', width: width as number, height: height as number, channels, dtype: dtype as 'uint8', data };
}

/**
 * Checks a returned value against `returnType`; throws ResultShapeError with a readable reason.
 * `scanned`: a volume's value range the host itself worked out already, off its event loop (a
 * remote level read on a worker thread; null: no finite value), so it is not scanned again here.
 */
export function normalizeResult(value: unknown, returnType: ResultType, scanned?: [number, number] | null): StoredResult {
  if (value === null || typeof value !== 'object') fail(`expected a ${returnType} result object, got ${value === null ? 'null' : typeof value}`);
  const r = value as Record<string, unknown>;
  if (r.type !== undefined && r.type !== returnType) fail(`result type '${String(r.type)}' does not match the declared ${returnType}`);
  switch (returnType) {
    case 'mesh':
      return normalizeMesh(r);
    case 'volume':
      return normalizeVolume(r, scanned);
    case 'point_cloud':
      return normalizePointCloud(r);
    case 'image':
      return normalizeImage(r);
  }
}
