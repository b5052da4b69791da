/**
 * @module ngff-metadata
 * What the host reads of an OME-Zarr image's metadata, and what it cannot read, said as a 400
 * naming the key and the reason: the `multiscales` (v0.4 in `.zattrs`, v0.5 under `ome` in
 * `zarr.json`), its axes (`tczyx` or any subset with `zyx`), its datasets with their scale and
 * translation, whether it is an NGFF label image, and each level's array metadata: Zarr v2
 * `.zarray` or Zarr v3 `zarr.json`, with only the dtypes and codecs the host decodes.
 */
import { createHostError } from '../errors.ts';
import { isDType, NUMPY_KINDS, type DType } from '../envelope/dtypes.ts';
import { isRecord } from '../wire/json-object.ts';

/** The axes an image may have, in the order NGFF puts them. */
export const IMAGE_AXES = ['zyx', 'czyx', 'tzyx', 'tczyx'] as const;
export type ImageAxes = (typeof IMAGE_AXES)[number];

/** Codecs decoded (in a v3 chain, a v2 compressor or inside a shard). */
const V3_CODECS = new Set(['bytes', 'sharding_indexed', 'zstd', 'blosc', 'gzip', 'crc32c', 'transpose']);
const V2_COMPRESSORS = new Set(['blosc', 'zstd', 'gzip', 'zlib']);

const unreadable = (key: string, why: string) => createHostError('SPC_ERR_REMOTE_UNREADABLE', key, why);

/** One level as the multiscales lists it. */
export interface DatasetEntry {
  path: string;
  scale: number[] | null;
  translation: number[] | null;
}

export interface ImageMetadata {
  axes: ImageAxes;
  datasets: DatasetEntry[];
  /** An NGFF label image (`image-label` beside the multiscales). */
  labels: boolean;
  name: string | null;
}

/** A JSON document's object; a 400 naming `key` when it is not JSON or not an object. */
export function parseDocument(bytes: Uint8Array, key: string): Record<string, unknown> {
  let value: unknown;
  try {
    value = JSON.parse(new TextDecoder().decode(bytes));
  } catch {
    throw unreadable(key, 'it is not JSON');
  }
  if (!isRecord(value)) throw unreadable(key, 'it is not a JSON object');
  return value;
}

function transformsOf(list: unknown, key: string): { scale: number[] | null; translation: number[] | null } {
  let scale: number[] | null = null;
  let translation: number[] | null = null;
  for (const t of Array.isArray(list) ? list : []) {
    if (!isRecord(t)) continue;
    const numbers = (v: unknown) => (Array.isArray(v) && v.every((n) => typeof n === 'number' && Number.isFinite(n)) ? (v as number[]) : null);
    if (t.type === 'scale') scale = numbers(t.scale);
    else if (t.type === 'translation') translation = numbers(t.translation);
    else if (t.type !== 'identity') throw unreadable(key, `coordinate transformation '${String(t.type)}' is not read (scale and translation are)`);
  }
  return { scale, translation };
}

/** The image's metadata from its attributes (`.zattrs`, or `zarr.json`'s `attributes.ome`); `key` names where they came from. */
export function readImageMetadata(attributes: Record<string, unknown>, key: string): ImageMetadata {
  const multiscales = attributes.multiscales;
  if (!Array.isArray(multiscales) || !isRecord(multiscales[0])) throw unreadable(key, 'it has no multiscales: not an OME-Zarr image');
  const ms = multiscales[0];
  const axisName = (a: unknown) => (typeof a === 'string' ? a : isRecord(a) ? String(a.name) : '?');
  const names = (Array.isArray(ms.axes) ? ms.axes : []).map(axisName).join('').toLowerCase();
  if (!(IMAGE_AXES as readonly string[]).includes(names)) {
    throw unreadable(key, `its axes '${names || 'none'}' are not read (tczyx, or a subset of it with z, y and x)`);
  }
  const datasets = Array.isArray(ms.datasets) ? ms.datasets : [];
  if (datasets.length === 0) throw unreadable(key, 'its multiscales list no datasets');
  const outer = transformsOf(ms.coordinateTransformations, key);
  return {
    axes: names as ImageAxes,
    datasets: datasets.map((d: unknown, i: number) => {
      if (!isRecord(d) || typeof d.path !== 'string' || d.path === '') throw unreadable(key, `dataset ${i} has no path`);
      const own = transformsOf(d.coordinateTransformations, key);
      // A transform on the whole multiscale applies after each dataset's own.
      const scale = own.scale && outer.scale ? own.scale.map((s, a) => s * (outer.scale![a] ?? 1)) : (own.scale ?? outer.scale);
      const translation = own.translation ?? outer.translation;
      return { path: d.path, scale, translation };
    }),
    labels: isRecord(attributes['image-label']),
    name: typeof ms.name === 'string' ? ms.name : null,
  };
}

/** The codec names of a v3 chain, those inside shards included. */
function codecNames(codecs: unknown): string[] {
  const names: string[] = [];
  for (const codec of Array.isArray(codecs) ? codecs : []) {
    if (!isRecord(codec)) continue;
    names.push(String(codec.name));
    if (codec.name === 'sharding_indexed' && isRecord(codec.configuration)) {
      names.push(...codecNames(codec.configuration.codecs), ...codecNames(codec.configuration.index_codecs));
    }
  }
  return names;
}

/** A level's array metadata checked for what the host decodes: its dtype and shape; a 400 naming `key` else. */
export function checkArrayMetadata(doc: Record<string, unknown>, key: string, ndim: number): { dtype: DType; shape: number[] } {
  const shape = doc.shape;
  if (!Array.isArray(shape) || !shape.every((n) => Number.isSafeInteger(n) && n > 0)) throw unreadable(key, 'its shape is not a list of positive integers');
  if (shape.length !== ndim) throw unreadable(key, `it has ${shape.length} dimensions where the multiscales name ${ndim} axes`);
  if (doc.zarr_format === 3) {
    if (doc.node_type !== 'array') throw unreadable(key, 'it is not an array');
    const dtype = String(doc.data_type);
    if (!isDType(dtype)) throw unreadable(key, `data type '${dtype}' is not read ((u)int8 to (u)int32, float32, float64)`);
    const bad = codecNames(doc.codecs).find((name) => !V3_CODECS.has(name));
    if (bad !== undefined) throw unreadable(key, `codec '${bad}' is not read (blosc, zstd, gzip or none, sharded or not)`);
    return { dtype, shape: shape as number[] };
  }
  if (doc.zarr_format !== 2) throw unreadable(key, `zarr_format ${String(doc.zarr_format)} is not read (2 or 3)`);
  const typestr = String(doc.dtype);
  const dtype = /^[<>|]/.test(typestr) ? NUMPY_KINDS[typestr.slice(1)] : undefined;
  if (!dtype) throw unreadable(key, `dtype '${typestr}' is not read ((u)int8 to (u)int32, float32, float64)`);
  const compressor = doc.compressor;
  if (compressor !== null && (!isRecord(compressor) || !V2_COMPRESSORS.has(String(compressor.id)))) {
    throw unreadable(key, `compressor '${isRecord(compressor) ? String(compressor.id) : String(compressor)}' is not read (blosc, zstd, gzip or none)`);
  }
  if (Array.isArray(doc.filters) && doc.filters.length > 0) throw unreadable(key, 'filters are not read');
  return { dtype, shape: shape as number[] };
}
