/**
 * @module decode-typed-result
 * Turns the typed result JSON of `/invoke` and `/jobs/{id}/result` into typed arrays: mesh and point-cloud flat lists become Float32Array/Uint32Array,
 * volume and image `data` (base64 of little-endian C-order bytes) becomes a view of the right
 * element type over freshly decoded, aligned bytes. Base64 is decoded without Node's Buffer, so
 * the client runs in browsers too: `atob` is in both (Node ≥ 16) but slow for megabytes and
 * produces a binary string; this decoder writes straight into a byte array whose buffer is
 * 8-byte aligned, so any typed array view fits on it.
 */
import { TYPED_ARRAYS as ARRAYS, isDType } from '../envelope/dtypes.ts';
import { readWireLabels } from '../envelope/wire-labels.ts';
import type {
  ImageData2D,
  MeshData,
  NumericArray,
  NumericDType,
  PointCloudData,
  TypedData,
  VolumeData,
} from '../wire/decoded-types.ts';
import type { VolumeAxes, VolumeAxesInfo, VolumeChannel } from '../wire/scene-types.ts';

/** Raised for JSON that is not a typed result. */
export class TypedResultError extends TypeError {
  override name = 'TypedResultError';
}

type Json = Record<string, unknown>;

const AXES: readonly string[] = ['zyx', 'czyx', 'tzyx', 'tczyx'];

function sizesOf(value: unknown): Record<string, number> | null {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return null;
  const entries = Object.entries(value as Record<string, unknown>);
  return entries.every(([, n]) => typeof n === 'number' && Number.isInteger(n)) ? (Object.fromEntries(entries) as Record<string, number>) : null;
}

/**
 * What a volume answer says of its time and channels, read from `fields` (an envelope preamble
 * or the JSON typed result): the whole array's `axes`, `channels`, `time_step`, `time_unit`,
 * `vector` and the length `unit` of its spacing, or for one step of it (`/data`) which step
 * (`t`, `c`) and the `sizes` of every axis. Fields that are absent or malformed are left out:
 * an answer of a plain volume reads as it always did.
 */
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

const LOOKUP = new Uint8Array(128).fill(255);
const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
for (let i = 0; i < ALPHABET.length; i++) LOOKUP[ALPHABET.charCodeAt(i)] = i;
// URL-safe variants decode too.
LOOKUP['-'.charCodeAt(0)] = 62;
LOOKUP['_'.charCodeAt(0)] = 63;

/**
 * Decodes standard or URL-safe base64 (padding optional, whitespace ignored).
 * @throws TypeError on a character outside the alphabet or an impossible length.
 */
function base64ToBytes(text: string): Uint8Array<ArrayBuffer> {
  const clean = text.replace(/[\s=]+/g, '');
  if (clean.length % 4 === 1) throw new TypeError('invalid base64: impossible length');
  const out = new Uint8Array(Math.floor((clean.length * 3) / 4));
  let bits = 0;
  let acc = 0;
  let o = 0;
  for (let i = 0; i < clean.length; i++) {
    const code = clean.charCodeAt(i);
    const v = code < 128 ? LOOKUP[code]! : 255;
    if (v === 255) throw new TypeError(`invalid base64 character at ${i}`);
    acc = (acc << 6) | v;
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out[o++] = (acc >> bits) & 0xff;
    }
  }
  return out;
}

function numberList(value: unknown, field: string): number[] {
  if (!Array.isArray(value) || !value.every((n) => typeof n === 'number')) {
    throw new TypedResultError(`typed result field '${field}' must be a list of numbers`);
  }
  return value as number[];
}

function optionalList(json: Json, field: string): number[] | null {
  const v = json[field];
  return v === undefined || v === null ? null : numberList(v, field);
}

/** base64 bytes viewed as `dtype`; base64ToBytes allocates a fresh buffer, so the view is aligned. */
function typedFromBase64(text: unknown, dtype: NumericDType, elements: number, field: string): NumericArray {
  if (typeof text !== 'string') throw new TypedResultError(`typed result field '${field}' must be a base64 string`);
  const bytes = base64ToBytes(text);
  const Ctor = ARRAYS[dtype];
  if (bytes.byteLength !== elements * Ctor.BYTES_PER_ELEMENT) {
    throw new TypedResultError(
      `typed result field '${field}' has ${bytes.byteLength} bytes, expected ${elements} × ${dtype}`,
    );
  }
  return new Ctor(bytes.buffer, bytes.byteOffset, elements);
}

function decodeMesh(json: Json): MeshData {
  const normals = optionalList(json, 'normals');
  const mesh: MeshData = {
    type: 'mesh',
    vertices: Float32Array.from(numberList(json.vertices, 'vertices')),
    indices: Uint32Array.from(numberList(json.indices, 'indices')),
    normals: normals && normals.length > 0 ? Float32Array.from(normals) : null,
  };
  const colors = decodeColors(json);
  if (colors) mesh.colors = colors;
  return mesh;
}

function decodeVolume(json: Json): VolumeData {
  if (!isDType(json.dtype)) throw new TypedResultError(`unsupported volume dtype ${JSON.stringify(json.dtype)}`);
  const shape = numberList(json.shape, 'shape');
  const elements = shape.reduce((a, b) => a * b, 1);
  const range = optionalList(json, 'value_range');
  return {
    type: 'volume',
    shape,
    dtype: json.dtype,
    data: typedFromBase64(json.data, json.dtype, elements, 'data'),
    spacing: optionalList(json, 'spacing'),
    origin: optionalList(json, 'origin'),
    value_range: range && range.length === 2 ? [range[0]!, range[1]!] : null,
    ...readWireLabels(json),
    ...readAxesInfo(json),
  };
}

/**
 * JSON loses the Uint8Array/Float32Array distinction of colours. The host may say which it
 * was (`colors_dtype`); otherwise integers above 1 mean bytes 0..255, anything else floats 0..1.
 */
function decodeColors(json: Json): Uint8Array | Float32Array | null {
  const list = optionalList(json, 'colors');
  if (!list || list.length === 0) return null;
  const declared = json.colors_dtype;
  const bytes = declared === 'uint8' || (declared !== 'float32' && list.some((v) => v > 1) && list.every(Number.isInteger));
  return bytes ? Uint8Array.from(list) : Float32Array.from(list);
}

function decodePointCloud(json: Json): PointCloudData {
  const scalars = optionalList(json, 'scalars');
  return {
    type: 'point_cloud',
    points: Float32Array.from(numberList(json.points, 'points')),
    colors: decodeColors(json),
    scalars: scalars && scalars.length > 0 ? Float32Array.from(scalars) : null,
  };
}

function decodeImage(json: Json): ImageData2D {
  const { width, height, channels } = json;
  if (typeof width !== 'number' || typeof height !== 'number') throw new TypedResultError('image needs width and height');
  if (channels !== 1 && channels !== 2 && channels !== 3 && channels !== 4) {
    throw new TypedResultError(`image channels must be 1 to 4, got ${JSON.stringify(channels)}`);
  }
  const dtype = json.dtype ?? 'uint8';
  if (dtype !== 'uint8' && dtype !== 'uint16' && dtype !== 'float32') {
    throw new TypedResultError(`unsupported image dtype ${JSON.stringify(dtype)}`);
  }
  const data = typedFromBase64(json.data, dtype, width * height * channels, 'data') as ImageData2D['data'];
  return { type: 'image', width, height, channels, dtype, data };
}

/**
 * Decodes one typed result JSON object into typed arrays.
 * @param json The parsed body of `/invoke`, `/jobs/{id}/result`, or a JSON `/data` answer.
 * @returns The result with typed arrays; `type` tells which.
 * @throws TypedResultError when `json` is not a typed result.
 * @example
 * const mesh = decodeTypedResult(await (await fetch('/api/processing/invoke', ...)).json());
 * if (mesh.type === 'mesh') console.log(mesh.indices.length / 3, 'triangles');
 */
export function decodeTypedResult(json: unknown): TypedData {
  if (json === null || typeof json !== 'object' || Array.isArray(json)) {
    throw new TypedResultError('a typed result must be a JSON object');
  }
  const body = json as Json;
  switch (body.type) {
    case 'mesh':
      return decodeMesh(body);
    case 'volume':
      return decodeVolume(body);
    case 'point_cloud':
      return decodePointCloud(body);
    case 'image':
      return decodeImage(body);
    default:
      throw new TypedResultError(`unknown typed result type ${JSON.stringify(body.type)}`);
  }
}
