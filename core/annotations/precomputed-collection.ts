/**
 * @module precomputed-collection
 * One precomputed annotation collection (Neuroglancer's `neuroglancer_annotations_v1`): its
 * `info` and its binary keys. Dimensions `x`, `y`, `z` with scale 1 and no unit (the room's
 * physical units as they are); bounds around every position (an ellipsoid's reach included);
 * properties `label` (uint32, the room's labels as an enum, when the type has any and at most
 * MAX_LABELS), each numeric property of the type's annotations whose name Neuroglancer takes
 * (float32, NaN where an annotation has none) and `color` (rgb); no relationships; an id index
 * `by_id/<id>` and one spatial level `spatial0` of one cell `0_0_0` holding every entry.
 *
 * Encoding, little endian: an annotation is its positions as float32, then its properties
 * (4-byte ones first, then `color`'s three bytes), padded to a multiple of 4 bytes; a list of
 * annotations is their count as uint64, each annotation's bytes, then each id as uint64.
 */
import type { Annotation } from '../wire/scene-types.ts';
import { NEUROGLANCER_TYPE, type PrecomputedEntry, type PrecomputedType } from './precomputed-entries.ts';

/** Distinct labels past which `label` is left out (its enum would swell the info). */
export const MAX_LABELS = 1000;
/** Numeric properties at most per collection (Neuroglancer reads an annotation of at most 255 bytes). */
const MAX_NUMERIC = 32;
/** Marks without a colour of their own, in Neuroglancer's default yellow. */
const DEFAULT_COLOR: [number, number, number] = [255, 255, 0];
const NEUROGLANCER_ID = /^[a-z][a-zA-Z0-9_]*$/;

interface PropertySpec {
  id: string;
  type: 'uint32' | 'float32' | 'rgb';
  description?: string;
  enum_values?: number[];
  enum_labels?: string[];
}

export interface PrecomputedCollection {
  info: Record<string, unknown>;
  entries: readonly PrecomputedEntry[];
  /** One entry's bytes (the by-id key). */
  encodeOne(entry: PrecomputedEntry): Buffer;
  /** The spatial cell's bytes: every entry (made once). */
  encodeAll(): Buffer;
}

function bounds(entries: readonly PrecomputedEntry[], type: PrecomputedType): { lower: number[]; upper: number[] } {
  const lower = [Infinity, Infinity, Infinity];
  const upper = [-Infinity, -Infinity, -Infinity];
  for (const { positions } of entries) {
    for (let axis = 0; axis < 3; axis++) {
      const ends =
        type === 'ellipsoid' ? [positions[axis]! - positions[axis + 3]!, positions[axis]! + positions[axis + 3]!] : positions.filter((_, i) => i % 3 === axis);
      for (const v of ends) {
        lower[axis] = Math.min(lower[axis]!, v);
        upper[axis] = Math.max(upper[axis]!, v);
      }
    }
  }
  if (entries.length === 0) return { lower: [0, 0, 0], upper: [1, 1, 1] };
  // The upper bound is exclusive: past the last position by a little of the extent.
  const pad = (axis: number) => (upper[axis]! > lower[axis]! ? (upper[axis]! - lower[axis]!) * 1e-3 : Math.max(Math.abs(upper[axis]!) * 1e-3, 1));
  return { lower, upper: upper.map((v, axis) => v + pad(axis)) };
}

function propertiesOf(annotations: readonly Annotation[]): { specs: PropertySpec[]; labels: Map<string, number>; numeric: string[] } {
  const labels = new Map<string, number>();
  const numeric = new Set<string>();
  const notNumeric = new Set<string>();
  for (const a of annotations) {
    if (a.label !== undefined && !labels.has(a.label)) labels.set(a.label, labels.size + 1);
    for (const [name, value] of Object.entries(a.properties ?? {})) (typeof value === 'number' ? numeric : notNumeric).add(name);
  }
  const names = [...numeric]
    .filter((name) => !notNumeric.has(name) && NEUROGLANCER_ID.test(name) && name !== 'label' && name !== 'color')
    .sort()
    .slice(0, MAX_NUMERIC);
  const specs: PropertySpec[] = [];
  const withLabels = labels.size > 0 && labels.size <= MAX_LABELS;
  if (withLabels)
    specs.push({ id: 'label', type: 'uint32', description: 'the label (0: none)', enum_values: [...labels.values()], enum_labels: [...labels.keys()] });
  for (const name of names) specs.push({ id: name, type: 'float32' });
  specs.push({ id: 'color', type: 'rgb', description: 'the colour (#rrggbb; yellow when none)' });
  return { specs, labels: withLabels ? labels : new Map(), numeric: names };
}

function rgb(color: string | undefined): [number, number, number] {
  if (color === undefined) return DEFAULT_COLOR;
  return [1, 3, 5].map((at) => parseInt(color.slice(at, at + 2), 16)) as [number, number, number];
}

export function precomputedCollection(type: PrecomputedType, entries: readonly PrecomputedEntry[]): PrecomputedCollection {
  const { specs, labels, numeric } = propertiesOf([...new Set(entries.map((e) => e.annotation))]);
  const { lower, upper } = bounds(entries, type);
  const withLabel = specs[0]!.id === 'label';
  const positionBytes = type === 'point' ? 12 : 24;
  const stride = Math.ceil((positionBytes + (withLabel ? 4 : 0) + 4 * numeric.length + 3) / 4) * 4;
  const write = (entry: PrecomputedEntry, view: DataView, at: number): void => {
    let o = at;
    for (const v of entry.positions) {
      view.setFloat32(o, v, true);
      o += 4;
    }
    const a = entry.annotation;
    if (withLabel) {
      view.setUint32(o, a.label === undefined ? 0 : (labels.get(a.label) ?? 0), true);
      o += 4;
    }
    for (const name of numeric) {
      const value = a.properties?.[name];
      view.setFloat32(o, typeof value === 'number' ? value : NaN, true);
      o += 4;
    }
    for (const byte of rgb(a.color)) view.setUint8(o++, byte);
  };
  let all: Buffer | undefined;
  return {
    info: {
      '@type': 'neuroglancer_annotations_v1',
      dimensions: { x: [1, ''], y: [1, ''], z: [1, ''] },
      lower_bound: lower,
      upper_bound: upper,
      annotation_type: NEUROGLANCER_TYPE[type],
      properties: specs,
      relationships: [],
      by_id: { key: 'by_id' },
      spatial: [{ key: 'spatial0', grid_shape: [1, 1, 1], chunk_size: upper.map((u, axis) => u - lower[axis]!), limit: Math.max(1, entries.length) }],
    },
    entries,
    encodeOne(entry) {
      const bytes = Buffer.alloc(stride);
      write(entry, new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength), 0);
      return bytes;
    },
    encodeAll() {
      if (all) return all;
      const n = entries.length;
      const bytes = Buffer.alloc(8 + n * stride + 8 * n);
      const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
      view.setBigUint64(0, BigInt(n), true);
      entries.forEach((entry, i) => {
        write(entry, view, 8 + i * stride);
        view.setBigUint64(8 + n * stride + 8 * i, entry.id, true);
      });
      return (all = bytes);
    },
  };
}
