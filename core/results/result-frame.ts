/**
 * @module result-frame
 * A StoredResult as it crosses the channel: a JSON header (every plain field, and each typed
 * array's key, element type, offset and byte length) followed by the arrays' raw bytes, each
 * starting at an 8-byte-aligned offset. Works for all four result types because it walks
 * the result's own fields. The receiver writes the bytes into one preallocated ArrayBuffer
 * and views the arrays on it: no list of chunks, no concatenation.
 */
import type { StoredResult } from './stored-result.ts';

const ARRAY_TYPES = {
  Int8Array,
  Uint8Array,
  Uint8ClampedArray,
  Int16Array,
  Uint16Array,
  Int32Array,
  Uint32Array,
  Float32Array,
  Float64Array,
} as const;

type ArrayTypeName = keyof typeof ARRAY_TYPES;

export interface ResultArrayHeader {
  key: string;
  ctor: ArrayTypeName;
  offset: number;
  byteLength: number;
}

export interface ResultHeader {
  fields: Record<string, unknown>;
  arrays: ResultArrayHeader[];
  /** Total payload bytes, padding included. */
  byteLength: number;
}

const align8 = (n: number): number => Math.ceil(n / 8) * 8;

function isArrayTypeName(name: string): name is ArrayTypeName {
  return Object.hasOwn(ARRAY_TYPES, name);
}

/** The header of `result` and the byte blocks to send in order (padding included). */
export function encodeResultFrame(result: StoredResult): { header: ResultHeader; blocks: Uint8Array[] } {
  const fields: Record<string, unknown> = {};
  const arrays: ResultArrayHeader[] = [];
  const blocks: Uint8Array[] = [];
  let offset = 0;
  for (const [key, value] of Object.entries(result)) {
    if (ArrayBuffer.isView(value) && !(value instanceof DataView)) {
      const ctor = value.constructor.name;
      if (!isArrayTypeName(ctor)) throw new Error(`result field '${key}' is a ${ctor}, which cannot be relayed`);
      const start = align8(offset);
      if (start > offset) blocks.push(new Uint8Array(start - offset));
      arrays.push({ key, ctor, offset: start, byteLength: value.byteLength });
      blocks.push(new Uint8Array(value.buffer, value.byteOffset, value.byteLength));
      offset = start + value.byteLength;
    } else if (value !== undefined) {
      fields[key] = value;
    }
  }
  return { header: { fields, arrays, byteLength: offset }, blocks };
}

/** Checks a received header before any memory is allocated for it. */
export function checkResultHeader(value: unknown): ResultHeader {
  const h = value as Partial<ResultHeader> | null;
  if (!h || typeof h !== 'object' || typeof h.fields !== 'object' || !Array.isArray(h.arrays) || !Number.isSafeInteger(h.byteLength) || h.byteLength! < 0) {
    throw new Error('malformed result header');
  }
  for (const a of h.arrays) {
    if (typeof a.key !== 'string' || !isArrayTypeName(a.ctor) || !Number.isSafeInteger(a.offset) || !Number.isSafeInteger(a.byteLength)) {
      throw new Error('malformed result array header');
    }
    if (
      a.offset % 8 !== 0 ||
      a.offset < 0 ||
      a.byteLength < 0 ||
      a.offset + a.byteLength > h.byteLength! ||
      a.byteLength % ARRAY_TYPES[a.ctor].BYTES_PER_ELEMENT !== 0
    ) {
      throw new Error(`result array '${a.key}' does not fit the payload`);
    }
  }
  return h as ResultHeader;
}

/** The result, its arrays viewing `payload` (which holds header.byteLength bytes). */
export function decodeResultFrame(header: ResultHeader, payload: ArrayBuffer): StoredResult {
  const result: Record<string, unknown> = { ...header.fields };
  for (const a of header.arrays) {
    const Ctor = ARRAY_TYPES[a.ctor];
    result[a.key] = new Ctor(payload, a.offset, a.byteLength / Ctor.BYTES_PER_ELEMENT);
  }
  return result as StoredResult;
}
