/**
 * A generated remote for benchmarks: a loopback HTTP server holding OME-Zarr v0.5 images too
 * large to exist (8192³ uint16, 1 TiB at level 0, a full pyramid down to 32³), each shard made
 * when asked for from its coordinates alone: the samples are a smooth function of the
 * position at level 0, the inner chunks zstd-compressed, the shard's index at its end. Shards
 * made lately are kept (a handful), so an index read and the chunk reads that follow it do not
 * make the shard twice. It answers `Range` (offset and suffix) and counts the requests and
 * body bytes it sent. It can be stopped and started again on the same port (a remote that
 * goes away and comes back).
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import Zstd from 'numcodecs/zstd';

/** Samples per axis of level 0. */
export const GENERATED_SIZE = 8192;
/** Samples per axis of an inner chunk; a shard holds SHARD of them per axis. */
const CHUNK = 64;
const SHARD = 2;
/** The coarsest level's samples per axis. */
const COARSEST = 32;
const KEPT_SHARDS = 32;

/** Levels of a generated image: 8192, 4096, ... COARSEST per axis. */
export const GENERATED_LEVELS = Math.log2(GENERATED_SIZE / COARSEST) + 1;

export interface GeneratedRemote {
  /** `http://127.0.0.1:PORT/` */
  url: string;
  port: number;
  /** Requests and body bytes sent since the last reset. */
  sent: { requests: number; bytes: number };
  reset(): void;
  /** Stops answering: the listening socket and every open connection closed. */
  stop(): Promise<void>;
  /** Answers again, on the same port. */
  start(): Promise<void>;
}

const json = (value: unknown): Uint8Array => new TextEncoder().encode(JSON.stringify(value));

function groupDocument(name: string): Uint8Array {
  const axes = [...'zyx'].map((axis) => ({ name: axis, type: 'space', unit: 'micrometer' }));
  const datasets = Array.from({ length: GENERATED_LEVELS }, (_, level) => ({
    path: String(level),
    coordinateTransformations: [{ type: 'scale', scale: [2 ** level, 2 ** level, 2 ** level] }],
  }));
  const ome = { version: '0.5', multiscales: [{ version: '0.5', name, axes, datasets }] };
  return json({ zarr_format: 3, node_type: 'group', attributes: { ome } });
}

function arrayDocument(level: number): Uint8Array {
  const side = GENERATED_SIZE >> level;
  const inner = [{ name: 'bytes', configuration: { endian: 'little' } }, { name: 'zstd', configuration: { level: 1, checksum: false } }];
  const sharding = {
    name: 'sharding_indexed',
    configuration: {
      chunk_shape: [CHUNK, CHUNK, CHUNK],
      codecs: inner,
      index_codecs: [{ name: 'bytes', configuration: { endian: 'little' } }],
      index_location: 'end',
    },
  };
  return json({
    zarr_format: 3, node_type: 'array', shape: [side, side, side], data_type: 'uint16',
    chunk_grid: { name: 'regular', configuration: { chunk_shape: [CHUNK * SHARD, CHUNK * SHARD, CHUNK * SHARD] } },
    chunk_key_encoding: { name: 'default', configuration: { separator: '/' } },
    codecs: [sharding], fill_value: 0, dimension_names: ['z', 'y', 'x'], attributes: {},
  });
}

/** The samples of inner chunk `index` (z, y, x) of `level`: a smooth function of the level-0 position, offset by `seed`. */
function chunkSamples(level: number, index: number[], seed: number): Uint16Array {
  const step = 2 ** level;
  const along = (axis: number, f: (p: number) => number) =>
    Float64Array.from({ length: CHUNK }, (_, i) => f((index[axis]! * CHUNK + i) * step));
  const sz = along(0, (p) => Math.sin(p / 700));
  const cy = along(1, (p) => Math.cos(p / 1300));
  const sx = along(2, (p) => Math.sin(p / 900));
  const cx = along(2, (p) => Math.cos(p / 2000));
  const out = new Uint16Array(CHUNK ** 3);
  let k = 0;
  for (let z = 0; z < CHUNK; z++)
    for (let y = 0; y < CHUNK; y++)
      for (let x = 0; x < CHUNK; x++) out[k++] = 20_000 + seed * 37 + Math.round(1500 * sx[x]! * cy[y]! + 1000 * sz[z]! * cx[x]!);
  return out;
}

/** Shard `index` of `level`: its inner chunks compressed, then the index (offset, length per chunk; all ones when outside). */
async function shardBytes(level: number, index: number[], seed: number): Promise<Uint8Array> {
  const side = GENERATED_SIZE >> level;
  const codec = Zstd.fromConfig({ level: 1 });
  const parts: Uint8Array[] = [];
  const table = new BigUint64Array(SHARD ** 3 * 2);
  let offset = 0;
  for (let k = 0; k < SHARD ** 3; k++) {
    const sub = [Math.floor(k / SHARD ** 2), Math.floor(k / SHARD) % SHARD, k % SHARD];
    const chunk = index.map((c, a) => c * SHARD + sub[a]!);
    if (chunk.some((c) => c * CHUNK >= side)) {
      table[2 * k] = table[2 * k + 1] = 0xffffffffffffffffn;
      continue;
    }
    const raw = chunkSamples(level, chunk, seed);
    const encoded = await codec.encode(new Uint8Array(raw.buffer));
    parts.push(encoded);
    table[2 * k] = BigInt(offset);
    table[2 * k + 1] = BigInt(encoded.length);
    offset += encoded.length;
  }
  parts.push(new Uint8Array(table.buffer));
  return Buffer.concat(parts);
}

/** What a key names: `IMAGE.ome.zarr/zarr.json`, `IMAGE.ome.zarr/L/zarr.json` or `IMAGE.ome.zarr/L/c/z/y/x`. */
function keyOf(path: string): { image: string; level?: number; shard?: number[] } | null {
  const m = /^(\w+)\.ome\.zarr\/(?:zarr\.json|(\d+)\/(?:zarr\.json|c\/(\d+)\/(\d+)\/(\d+)))$/.exec(path);
  if (!m) return null;
  const level = m[2] === undefined ? undefined : Number(m[2]);
  if (level !== undefined && level >= GENERATED_LEVELS) return null;
  const shard = m[3] === undefined ? undefined : [Number(m[3]), Number(m[4]), Number(m[5])];
  if (shard && shard.some((c) => c * CHUNK * SHARD >= GENERATED_SIZE >> level!)) return null;
  return { image: m[1]!, ...(level !== undefined ? { level } : {}), ...(shard ? { shard } : {}) };
}

/** The seed of an image: the digits its name ends with (`big3` → 3), else 0. */
const seedOf = (image: string): number => Number(/\d*$/.exec(image)![0] || 0);

/** Starts a generated remote on a free port of 127.0.0.1. */
export async function startGeneratedRemote(): Promise<GeneratedRemote> {
  const kept = new Map<string, Promise<Uint8Array>>();
  const made = (path: string, level: number, shard: number[], seed: number): Promise<Uint8Array> => {
    let bytes = kept.get(path);
    if (!bytes) {
      bytes = shardBytes(level, shard, seed);
      kept.set(path, bytes);
      if (kept.size > KEPT_SHARDS) kept.delete(kept.keys().next().value!);
    }
    return bytes;
  };
  const answer = async (request: IncomingMessage, response: ServerResponse): Promise<void> => {
    const path = decodeURIComponent(new URL(request.url ?? '/', 'http://x').pathname.slice(1));
    state.sent.requests++;
    const key = keyOf(path);
    if (!key) return void response.writeHead(404).end();
    const bytes =
      key.level === undefined ? groupDocument(key.image) : key.shard ? await made(path, key.level, key.shard, seedOf(key.image)) : arrayDocument(key.level);
    const range = /^bytes=(\d*)-(\d*)$/.exec(request.headers.range ?? '');
    let body = bytes;
    let status = 200;
    const headers: Record<string, string> = { etag: `"generated-${key.image}"`, 'accept-ranges': 'bytes' };
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
    state.sent.bytes += body.length;
    response.writeHead(status, { ...headers, 'content-length': String(body.length) }).end(body);
  };
  let server: Server;
  const listen = (port: number) =>
    new Promise<number>((resolve, reject) => {
      server = createServer((request, response) => {
        answer(request, response).catch((error: unknown) => response.writeHead(500).end(String(error)));
      });
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => resolve((server.address() as AddressInfo).port));
    });
  const port = await listen(0);
  const state: GeneratedRemote = {
    url: `http://127.0.0.1:${port}/`,
    port,
    sent: { requests: 0, bytes: 0 },
    reset() {
      this.sent = { requests: 0, bytes: 0 };
    },
    stop: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
    start: async () => {
      await listen(port);
    },
  };
  return state;
}
