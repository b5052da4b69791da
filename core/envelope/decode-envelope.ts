/**
 * @module decode-envelope
 * The reference envelope decoder for clients and tests. It runs in browsers and Node alike
 * (no Node-only APIs) and returns typed arrays that are views onto the given bytes: it copies
 * a block only when the block's offset is not a multiple of its element size, which typed
 * array views require.
 */
import { TYPED_ARRAYS as ARRAYS, type DType } from './dtypes.ts';
import { readWireLabels, type WireLabels } from './wire-labels.ts';

type ArrayOf<D extends DType> = InstanceType<(typeof ARRAYS)[D]>;

/** Raised for a buffer that is not a valid v1 envelope. */
export class EnvelopeDecodeError extends Error {
  override name = 'EnvelopeDecodeError';
}

export interface DecodedMesh {
  type: 'mesh';
  vertices: Float32Array;
  indices: Uint32Array;
  normals: Float32Array | null;
  /** Per-vertex RGB (bytes or floats 0..1), present only when the mesh has them. */
  colors?: Uint8Array | Float32Array;
  preamble: Record<string, unknown>;
}

/** A volume; a segmentation also has `labels: true` and its names and colours when sent. */
export interface DecodedVolume extends WireLabels {
  type: 'volume';
  shape: number[];
  dtype: DType;
  data: ArrayOf<DType>;
  spacing: number[] | null;
  origin: number[] | null;
  value_range: [number, number] | null;
  preamble: Record<string, unknown>;
}

export type DecodedEnvelope = DecodedMesh | DecodedVolume;

function toBytes(input: ArrayBuffer | ArrayBufferView): Uint8Array {
  if (input instanceof ArrayBuffer) return new Uint8Array(input);
  if (ArrayBuffer.isView(input)) return new Uint8Array(input.buffer, input.byteOffset, input.byteLength);
  throw new EnvelopeDecodeError('envelope must be an ArrayBuffer or a byte view');
}

function readBlock<D extends DType>(bytes: Uint8Array, offset: number, dtype: D, count: number, what: string): ArrayOf<D> {
  const Ctor = ARRAYS[dtype];
  const byteLength = count * Ctor.BYTES_PER_ELEMENT;
  if (offset + byteLength > bytes.byteLength) {
    throw new EnvelopeDecodeError(
      `truncated envelope: ${what} needs ${byteLength} bytes at offset ${offset}, only ${bytes.byteLength - offset} left`,
    );
  }
  const start = bytes.byteOffset + offset;
  if (start % Ctor.BYTES_PER_ELEMENT === 0) {
    return new Ctor(bytes.buffer as ArrayBuffer, start, count) as ArrayOf<D>;
  }
  // Unaligned for this element type: typed array views cannot start here, so copy.
  return new Ctor(bytes.slice(offset, offset + byteLength).buffer) as ArrayOf<D>;
}

function count(preamble: Record<string, unknown>, field: string): number {
  const v = preamble[field] ?? 0;
  if (typeof v !== 'number' || !Number.isInteger(v) || v < 0) {
    throw new EnvelopeDecodeError(`invalid ${field} in preamble: ${JSON.stringify(v)}`);
  }
  return v;
}

function expectDType(preamble: Record<string, unknown>, field: string, wanted: DType): void {
  const v = preamble[field] ?? wanted;
  if (v !== wanted) throw new EnvelopeDecodeError(`unsupported ${field} ${JSON.stringify(v)}: v1 requires ${wanted}`);
}

function numbers(value: unknown): number[] | null {
  return Array.isArray(value) && value.every((n) => typeof n === 'number') ? (value as number[]) : null;
}

function decodeMesh(bytes: Uint8Array, offset: number, preamble: Record<string, unknown>): DecodedMesh {
  expectDType(preamble, 'vertex_dtype', 'float32');
  expectDType(preamble, 'index_dtype', 'uint32');
  expectDType(preamble, 'normal_dtype', 'float32');
  const vertexCount = count(preamble, 'vertex_count');
  const indexCount = count(preamble, 'index_count');
  const normalCount = count(preamble, 'normal_count');
  const vertices = readBlock(bytes, offset, 'float32', vertexCount * 3, 'vertices');
  offset += vertexCount * 12;
  const indices = readBlock(bytes, offset, 'uint32', indexCount, 'indices');
  offset += indexCount * 4;
  const normals = normalCount > 0 ? readBlock(bytes, offset, 'float32', normalCount * 3, 'normals') : null;
  offset += normalCount * 12;
  const colorCount = count(preamble, 'color_count');
  const colorDType = preamble.color_dtype ?? 'uint8';
  if (colorDType !== 'uint8' && colorDType !== 'float32')
    throw new EnvelopeDecodeError(`unsupported color_dtype ${JSON.stringify(colorDType)}: uint8 or float32`);
  if (colorCount === 0) return { type: 'mesh', vertices, indices, normals, preamble };
  const colors = readBlock(bytes, offset, colorDType, colorCount * 3, 'colors');
  return { type: 'mesh', vertices, indices, normals, colors, preamble };
}

function decodeVolume(bytes: Uint8Array, offset: number, preamble: Record<string, unknown>): DecodedVolume {
  const dtype = preamble.dtype;
  if (typeof dtype !== 'string' || !Object.hasOwn(ARRAYS, dtype)) {
    throw new EnvelopeDecodeError(`unsupported volume dtype ${JSON.stringify(dtype)}`);
  }
  const shape = numbers(preamble.shape);
  if (!shape || shape.some((n) => !Number.isInteger(n) || n < 0)) {
    throw new EnvelopeDecodeError(`invalid volume shape ${JSON.stringify(preamble.shape)}`);
  }
  const elements = shape.reduce((a, b) => a * b, 1);
  const data = readBlock(bytes, offset, dtype as DType, elements, 'volume data');
  const range = numbers(preamble.value_range);
  return {
    type: 'volume',
    shape,
    dtype: dtype as DType,
    data,
    spacing: numbers(preamble.spacing),
    origin: numbers(preamble.origin),
    value_range: range && range.length === 2 ? [range[0]!, range[1]!] : null,
    ...readWireLabels(preamble),
    preamble,
  };
}

/**
 * Decodes a v1 envelope.
 * @throws EnvelopeDecodeError on a truncated buffer, an unknown `type` or a mesh dtype other
 * than float32 vertices/normals and uint32 indices.
 */
export function decodeEnvelope(input: ArrayBuffer | ArrayBufferView): DecodedEnvelope {
  const bytes = toBytes(input);
  if (bytes.byteLength < 4) throw new EnvelopeDecodeError('truncated envelope: shorter than its 4-byte length prefix');
  const length = new DataView(bytes.buffer, bytes.byteOffset, 4).getUint32(0, true);
  if (4 + length > bytes.byteLength) {
    throw new EnvelopeDecodeError(`truncated envelope: preamble of ${length} bytes, only ${bytes.byteLength - 4} present`);
  }
  let preamble: Record<string, unknown>;
  try {
    preamble = JSON.parse(new TextDecoder().decode(bytes.subarray(4, 4 + length))) as Record<string, unknown>;
  } catch {
    throw new EnvelopeDecodeError('envelope preamble is not valid JSON');
  }
  if (preamble === null || typeof preamble !== 'object' || Array.isArray(preamble)) {
    throw new EnvelopeDecodeError('envelope preamble is not a JSON object');
  }
  if (preamble.type === 'mesh') return decodeMesh(bytes, 4 + length, preamble);
  if (preamble.type === 'volume') return decodeVolume(bytes, 4 + length, preamble);
  throw new EnvelopeDecodeError(`unknown envelope type ${JSON.stringify(preamble.type)}`);
}
