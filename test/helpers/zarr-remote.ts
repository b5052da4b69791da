/**
 * @module zarr-remote
 * A remote for tests: a loopback HTTP server answering keys from a map (with `Range`, ETag,
 * redirects and a switch that makes it fail), counting what it sends; and OME-Zarr images
 * written into such a map by hand from the Zarr v2 and v3 specifications (never by the
 * product's writer): v0.4 with `.` or `/` chunk keys, v0.5 with or without `sharding_indexed`,
 * chunks compressed with numcodecs' blosc, zstd or gzip, or not at all.
 */
import { createHash } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import Blosc from 'numcodecs/blosc';
import GZip from 'numcodecs/gzip';
import Zstd from 'numcodecs/zstd';
import { TYPED_ARRAYS, type AnyTypedArray, type DType } from '../../core/envelope/dtypes.ts';

export interface RemoteServer {
  /** `http://127.0.0.1:PORT/` */
  url: string;
  port: number;
  files: Map<string, Uint8Array>;
  /** Path prefix (no leading slash) → where it redirects (a Location header as given, the rest of the path appended). */
  redirects: Map<string, string>;
  /** Requests and body bytes sent since the last reset. */
  sent: { requests: number; bytes: number; paths: string[] };
  /** While set, every request answers this status (or hangs with 'hang'). */
  failing: number | 'hang' | null;
  reset(): void;
  close(): Promise<void>;
}

function etagOf(bytes: Uint8Array): string {
  return `"${createHash('sha256').update(bytes).digest('hex').slice(0, 16)}"`;
}

/** Starts a loopback remote serving `files` (keys without a leading slash). */
export async function startRemoteServer(files = new Map<string, Uint8Array>()): Promise<RemoteServer> {
  const hanging = new Set<import('node:http').ServerResponse>();
  const state: RemoteServer = {
    url: '',
    port: 0,
    files,
    redirects: new Map(),
    sent: { requests: 0, bytes: 0, paths: [] },
    failing: null,
    reset() {
      this.sent = { requests: 0, bytes: 0, paths: [] };
    },
    close: async () => {
      for (const response of hanging) response.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
  const server: Server = createServer((request, response) => {
    const path = decodeURIComponent(new URL(request.url ?? '/', 'http://x').pathname.slice(1));
    state.sent.requests++;
    state.sent.paths.push(path);
    if (state.failing === 'hang') {
      hanging.add(response);
      return;
    }
    if (state.failing !== null) return void response.writeHead(state.failing).end('down');
    const redirect = [...state.redirects].find(([prefix]) => path.startsWith(prefix));
    if (redirect) return void response.writeHead(302, { location: redirect[1] + path.slice(redirect[0].length) }).end();
    const bytes = files.get(path);
    if (!bytes) return void response.writeHead(404).end();
    const range = /^bytes=(\d*)-(\d*)$/.exec(request.headers.range ?? '');
    let body = bytes;
    let status = 200;
    const headers: Record<string, string> = { etag: etagOf(bytes), 'accept-ranges': 'bytes' };
    if (range) {
      const [start, end] =
        range[1] === ''
          ? [Math.max(0, bytes.length - Number(range[2])), bytes.length - 1]
          : [Number(range[1]), range[2] === '' ? bytes.length - 1 : Number(range[2])];
      if (start >= bytes.length) return void response.writeHead(416, { 'content-range': `bytes */${bytes.length}` }).end();
      body = bytes.subarray(start, Math.min(end, bytes.length - 1) + 1);
      status = 206;
      headers['content-range'] = `bytes ${start}-${start + body.length - 1}/${bytes.length}`;
    }
    // A HEAD is answered without its body (node leaves it out): no bytes sent.
    if (request.method !== 'HEAD') state.sent.bytes += body.length;
    response.writeHead(status, { ...headers, 'content-length': String(body.length) }).end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  state.port = (server.address() as AddressInfo).port;
  state.url = `http://127.0.0.1:${state.port}/`;
  return state;
}

export type Compression = 'blosc' | 'zstd' | 'gzip' | 'none';

/** Deterministic samples of `dtype` that use its range (negative ones for signed types, fractions for floats). */
export function samplesOf(dtype: DType, count: number, seed = 1): AnyTypedArray {
  const out = new TYPED_ARRAYS[dtype](count);
  for (let i = 0; i < count; i++) {
    const h = Math.imul(i + seed * 7919, 2654435761) >>> 0;
    if (dtype.startsWith('float')) out[i] = (h % 100_000) / 7 - 5000;
    else if (dtype === 'uint8' || dtype === 'int8') out[i] = (h >>> 8) & 0xff;
    else if (dtype === 'uint16' || dtype === 'int16') out[i] = (h >>> 4) & 0xffff;
    else out[i] = h;
  }
  return out;
}

/** The block of `data` (C order, `shape`) at chunk `index` of `chunks`, padded with 0 to the whole chunk. */
function chunkOf(data: AnyTypedArray, shape: number[], chunks: number[], index: number[]): AnyTypedArray {
  const Ctor = data.constructor as new (n: number) => AnyTypedArray;
  const out = new Ctor(chunks.reduce((a, b) => a * b, 1));
  const n = shape.length;
  const at = new Array<number>(n).fill(0);
  for (let k = 0; k < out.length; k++) {
    let inside = true;
    let from = 0;
    for (let axis = 0; axis < n; axis++) {
      const coord = index[axis]! * chunks[axis]! + at[axis]!;
      if (coord >= shape[axis]!) inside = false;
      from = from * shape[axis]! + coord;
    }
    if (inside) out[k] = data[from]!;
    for (let axis = n - 1; axis >= 0; axis--) {
      if (++at[axis]! < chunks[axis]!) break;
      at[axis] = 0;
    }
  }
  return out;
}

function* chunkIndices(grid: number[]): Generator<number[]> {
  const at = new Array<number>(grid.length).fill(0);
  for (;;) {
    yield [...at];
    let axis = grid.length - 1;
    while (axis >= 0 && ++at[axis]! >= grid[axis]!) at[axis--] = 0;
    if (axis < 0) return;
  }
}

function bytesOf(array: AnyTypedArray): Uint8Array {
  return new Uint8Array(array.buffer, array.byteOffset, array.byteLength);
}

async function compress(bytes: Uint8Array, how: Compression, typesize: number): Promise<Uint8Array> {
  if (how === 'none') return bytes;
  if (how === 'gzip') return GZip.fromConfig({ level: 1 }).encode(bytes);
  if (how === 'zstd') return Zstd.fromConfig({ level: 1 }).encode(bytes);
  return Blosc.fromConfig({ cname: 'lz4', clevel: 5, shuffle: typesize > 1 ? 1 : 0, blocksize: 0 }).encode(bytes);
}

const V2_TYPESTR: Record<DType, string> = {
  uint8: '|u1', int8: '|i1', uint16: '<u2', int16: '<i2', uint32: '<u4', int32: '<i4', float32: '<f4', float64: '<f8',
};

const json = (value: unknown) => new TextEncoder().encode(JSON.stringify(value));

/** One level of an image to write: its samples and shape. */
export interface LevelData {
  shape: number[];
  data: AnyTypedArray;
}

export interface ImageSpec {
  /** Path of the image inside the remote, `lab/cells.ome.zarr` (no trailing slash). */
  path: string;
  axes: string;
  dtype: DType;
  levels: LevelData[];
  chunks: number[];
  compression: Compression;
  /** Level 0's scale and translation along every axis. */
  scale: number[];
  translation?: number[];
  /** An NGFF label image. */
  labels?: boolean;
}

function multiscales(spec: ImageSpec, version: '0.4' | '0.5'): object {
  const axisType = (a: string) => (a === 't' ? 'time' : a === 'c' ? 'channel' : 'space');
  return {
    version,
    name: spec.path.split('/').pop(),
    axes: [...spec.axes].map((name) => ({ name, type: axisType(name), ...(axisType(name) === 'space' ? { unit: 'micrometer' } : {}) })),
    datasets: spec.levels.map((level, i) => ({
      path: String(i),
      coordinateTransformations: [
        { type: 'scale', scale: spec.scale.map((s, a) => (s * spec.levels[0]!.shape[a]!) / level.shape[a]!) },
        ...(spec.translation ? [{ type: 'translation', translation: spec.translation }] : []),
      ],
    })),
  };
}

/** Writes an OME-Zarr v0.4 image (Zarr v2) into `files`, chunk keys joined by `separator`. */
export async function writeV04(files: Map<string, Uint8Array>, spec: ImageSpec, separator: '.' | '/'): Promise<void> {
  const at = (key: string) => `${spec.path}/${key}`;
  files.set(at('.zgroup'), json({ zarr_format: 2 }));
  const label = spec.labels ? { 'image-label': { version: '0.4', colors: [] } } : {};
  files.set(at('.zattrs'), json({ multiscales: [multiscales(spec, '0.4')], ...label }));
  const item = spec.levels[0]!.data.BYTES_PER_ELEMENT;
  for (const [i, level] of spec.levels.entries()) {
    const compressor =
      spec.compression === 'none'
        ? null
        : spec.compression === 'blosc'
          ? { id: 'blosc', cname: 'lz4', clevel: 5, shuffle: 1, blocksize: 0 }
          : { id: spec.compression, level: 1 };
    files.set(at(`${i}/.zarray`), json({
      zarr_format: 2, shape: level.shape, chunks: spec.chunks, dtype: V2_TYPESTR[spec.dtype], compressor,
      fill_value: 0, order: 'C', filters: null, dimension_separator: separator,
    }));
    const grid = level.shape.map((n, a) => Math.ceil(n / spec.chunks[a]!));
    for (const index of chunkIndices(grid)) {
      const raw = bytesOf(chunkOf(level.data, level.shape, spec.chunks, index));
      files.set(at(`${i}/${index.join(separator)}`), await compress(raw, spec.compression, item));
    }
  }
}

function innerCodecs(spec: ImageSpec): object[] {
  const bytes = { name: 'bytes', configuration: { endian: 'little' } };
  const item = spec.levels[0]!.data.BYTES_PER_ELEMENT;
  if (spec.compression === 'none') return [bytes];
  if (spec.compression === 'blosc') {
    const configuration = { cname: 'lz4', clevel: 5, shuffle: item > 1 ? 'shuffle' : 'noshuffle', typesize: item, blocksize: 0 };
    return [bytes, { name: 'blosc', configuration }];
  }
  return [bytes, { name: spec.compression, configuration: spec.compression === 'zstd' ? { level: 1, checksum: false } : { level: 1 } }];
}

/**
 * Writes an OME-Zarr v0.5 image (Zarr v3) into `files`; with `shard` each key `c/...` is a
 * shard of that many chunks per axis, its inner chunks followed by the index (offset and
 * length of each, little-endian uint64; all ones for an empty one) at the end.
 */
export async function writeV05(files: Map<string, Uint8Array>, spec: ImageSpec, shard?: number[]): Promise<void> {
  const at = (key: string) => `${spec.path}/${key}`;
  const label = spec.labels ? { 'image-label': { colors: [] } } : {};
  const ome = { version: '0.5', multiscales: [multiscales(spec, '0.5')], ...label };
  files.set(at('zarr.json'), json({ zarr_format: 3, node_type: 'group', attributes: { ome } }));
  const item = spec.levels[0]!.data.BYTES_PER_ELEMENT;
  for (const [i, level] of spec.levels.entries()) {
    const outer = shard ? spec.chunks.map((c, a) => c * shard[a]!) : spec.chunks;
    const codecs = shard
      ? [
          {
            name: 'sharding_indexed',
            configuration: {
              chunk_shape: spec.chunks,
              codecs: innerCodecs(spec),
              index_codecs: [{ name: 'bytes', configuration: { endian: 'little' } }],
              index_location: 'end',
            },
          },
        ]
      : innerCodecs(spec);
    files.set(at(`${i}/zarr.json`), json({
      zarr_format: 3, node_type: 'array', shape: level.shape, data_type: spec.dtype,
      chunk_grid: { name: 'regular', configuration: { chunk_shape: outer } },
      chunk_key_encoding: { name: 'default', configuration: { separator: '/' } },
      codecs, fill_value: 0, dimension_names: [...spec.axes], attributes: {},
    }));
    const grid = level.shape.map((n, a) => Math.ceil(n / outer[a]!));
    for (const index of chunkIndices(grid)) {
      const key = at(`${i}/c/${index.join('/')}`);
      if (!shard) {
        files.set(key, await compress(bytesOf(chunkOf(level.data, level.shape, spec.chunks, index)), spec.compression, item));
        continue;
      }
      const parts: Uint8Array[] = [];
      const inner = [...chunkIndices(shard)];
      const table = new BigUint64Array(inner.length * 2);
      let offset = 0;
      for (const [k, sub] of inner.entries()) {
        const chunkIndex = index.map((c, a) => c * shard[a]! + sub[a]!);
        if (chunkIndex.some((c, a) => c * spec.chunks[a]! >= level.shape[a]!)) {
          table[2 * k] = table[2 * k + 1] = 0xffffffffffffffffn;
          continue;
        }
        const encoded = await compress(bytesOf(chunkOf(level.data, level.shape, spec.chunks, chunkIndex)), spec.compression, item);
        parts.push(encoded);
        table[2 * k] = BigInt(offset);
        table[2 * k + 1] = BigInt(encoded.length);
        offset += encoded.length;
      }
      parts.push(new Uint8Array(table.buffer));
      files.set(key, Buffer.concat(parts));
    }
  }
}

/** Level `shape` halved (every spatial axis longer than 1) by taking every other sample: what a test's level 1 holds. */
export function halved(level: LevelData, axes: string): LevelData {
  const shape = level.shape.map((n, a) => ('zyx'.includes(axes[a]!) ? Math.ceil(n / 2) : n));
  const Ctor = level.data.constructor as new (n: number) => AnyTypedArray;
  const data = new Ctor(shape.reduce((a, b) => a * b, 1));
  const n = shape.length;
  const at = new Array<number>(n).fill(0);
  for (let k = 0; k < data.length; k++) {
    let from = 0;
    for (let axis = 0; axis < n; axis++) from = from * level.shape[axis]! + at[axis]! * (shape[axis] === level.shape[axis] ? 1 : 2);
    data[k] = level.data[from]!;
    for (let axis = n - 1; axis >= 0; axis--) {
      if (++at[axis]! < shape[axis]!) break;
      at[axis] = 0;
    }
  }
  return { shape, data };
}
