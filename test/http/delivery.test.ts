import http from 'node:http';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import type { FastifyInstance } from 'fastify';
import { beforeAll, describe, expect, it } from 'vitest';
import type { CreateAppOptions } from '../../core/app.ts';
import { decodeEnvelope, type DecodedMesh, type DecodedVolume } from '../../core/envelope/decode-envelope.ts';
import { listenTestApp, type ListeningApp } from '../helpers/raw-http.ts';
import { fileTestApp, room } from '../helpers/create-test-app.ts';
import { makeSpecimensDir } from '../helpers/specimens-dir.ts';

interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
}

/** A request over a real socket: the raw headers (Transfer-Encoding included) and body bytes. */
function request(url: string, options: { method?: string; headers?: Record<string, string>; body?: unknown } = {}): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const payload = options.body === undefined ? undefined : JSON.stringify(options.body);
    const headers = { ...(payload ? { 'content-type': 'application/json' } : {}), ...options.headers };
    const req = http.request(url, { method: options.method ?? (payload ? 'POST' : 'GET'), headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(payload);
  });
}

/** The identity bytes of a compressed answer. */
function decoded(answer: Answer): Buffer {
  const encoding = answer.headers['content-encoding'];
  if (encoding === 'gzip') return gunzipSync(answer.body);
  if (encoding === 'br') return brotliDecompressSync(answer.body);
  return answer.body;
}

/** Sent whole: a Content-Length that matches, never chunked. */
function expectWhole(answer: Answer): void {
  expect(answer.headers['transfer-encoding']).toBeUndefined();
  expect(Number(answer.headers['content-length'])).toBe(answer.body.length);
}

function volumeOf(answer: Answer): DecodedVolume {
  const out = decodeEnvelope(Uint8Array.from(decoded(answer)));
  if (out.type !== 'volume') throw new Error('not a volume');
  return out;
}

function meshOf(answer: Answer): DecodedMesh {
  const out = decodeEnvelope(Uint8Array.from(decoded(answer)));
  if (out.type !== 'mesh') throw new Error('not a mesh');
  return out;
}

/** A smooth float32 volume 40×30×20 from -10 to 90. */
const VOLUME_SHAPE = [40, 30, 20];
const VOLUME_COUNT = 40 * 30 * 20;
function volumeValue(i: number): number {
  return -10 + (100 * i) / (VOLUME_COUNT - 1);
}

/** A UV sphere of radius 2 around (1, 0, 0) with 2·n·n triangles. */
function sphere(n: number): { vertices: Float32Array; indices: Uint32Array; normals: Float32Array } {
  const vertices: number[] = [];
  const normals: number[] = [];
  const indices: number[] = [];
  for (let i = 0; i <= n; i++) {
    for (let j = 0; j <= n; j++) {
      const t = (Math.PI * i) / n;
      const p = (2 * Math.PI * j) / n;
      const x = Math.sin(t) * Math.cos(p);
      const y = Math.sin(t) * Math.sin(p);
      const z = Math.cos(t);
      vertices.push(1 + 2 * x, 2 * y, 2 * z);
      normals.push(x, y, z);
    }
  }
  for (let i = 0; i < n; i++) {
    for (let j = 0; j < n; j++) {
      const a = i * (n + 1) + j;
      indices.push(a, a + n + 1, a + 1, a + 1, a + n + 1, a + n + 2);
    }
  }
  return { vertices: Float32Array.from(vertices), indices: Uint32Array.from(indices), normals: Float32Array.from(normals) };
}

function bounds(vertices: Float32Array): { min: number[]; max: number[] } {
  const min = [Infinity, Infinity, Infinity];
  const max = [-Infinity, -Infinity, -Infinity];
  for (let i = 0; i < vertices.length; i++) {
    min[i % 3] = Math.min(min[i % 3]!, vertices[i]!);
    max[i % 3] = Math.max(max[i % 3]!, vertices[i]!);
  }
  return { min, max };
}

/** The specimens folder of a delivery host: a compressible static text file and a JSON data file. */
async function deliverySpecimens(): Promise<string> {
  const specimensDir = await makeSpecimensDir();
  // A compressible static text file, and a piecewise-constant uint8 volume (two values).
  await mkdir(join(specimensDir, 'stars'), { recursive: true });
  const lines = Array.from({ length: 3000 }, (_, i) => `${i % 17} ${i % 5} ${i % 3} 255 128 0`).join('\n');
  await writeFile(join(specimensDir, 'stars', 'stars.xyz'), lines);
  await writeFile(join(specimensDir, 'stars', 'specimen.json'), JSON.stringify({ display_name: 'Stars', type: 'point_cloud', data_file: 'stars.xyz' }));
  // A JSON data file: the content type on-the-fly compression used to take, chunked.
  await mkdir(join(specimensDir, 'listing'), { recursive: true });
  await writeFile(join(specimensDir, 'listing', 'points.json'), JSON.stringify({ points: Array.from({ length: 4000 }, (_, i) => i % 10) }));
  await writeFile(join(specimensDir, 'listing', 'specimen.json'), JSON.stringify({ display_name: 'Listing', type: 'point_cloud', data_file: 'points.json' }));
  return specimensDir;
}

/** The computed specimens of a delivery host: two volumes and a sphere. */
function registerDeliverySpecimens(app: FastifyInstance): void {
  const volume = () => {
    const data = new Float32Array(VOLUME_COUNT);
    for (let i = 0; i < data.length; i++) data[i] = volumeValue(i);
    return { shape: VOLUME_SHAPE, dtype: 'float32' as const, data, spacing: [1, 2, 3], origin: [0, 0, 0] };
  };
  app.vitrine.registerSpecimen({ id: 'ramp-volume', returnType: 'volume' }, volume);
  app.vitrine.registerSpecimen({ id: 'long-volume', returnType: 'volume' }, () => ({
    shape: [300, 4, 2],
    dtype: 'float32' as const,
    data: Float32Array.from({ length: 2400 }, (_, i) => i % 7),
  }));
  app.vitrine.registerSpecimen({ id: 'ball', returnType: 'mesh' }, () => sphere(100));
}

/** A delivery host of its own, for a case that sets an option. */
async function deliveryHost(options: CreateAppOptions): Promise<ListeningApp> {
  const host = await listenTestApp({ specimensDir: await deliverySpecimens(), ...options });
  registerDeliverySpecimens(host.app);
  return host;
}

/**
 * The file's one delivery host with the default options, for every case that takes them (a
 * host costs more to start than most cases take): computed results are asked for in rooms of
 * each case's own, and counts are taken as differences.
 */
const file = fileTestApp(async () => ({ specimensDir: await deliverySpecimens() }));
beforeAll(() => registerDeliverySpecimens(file.app));
const shared = (): ListeningApp => ({ app: file.app, url: file.url, port: Number(new URL(file.url).port) });

describe('compressed variants', () => {
  it('gzip and br envelopes decompress to the identity bytes, whole, with Vary; a Range request gets identity bytes', async () => {
    const { url } = shared();
    const data = `${url}/api/specimens/ramp-volume/data?room_id=${room()}`;
    const identity = await request(data);
    expect(identity.status).toBe(200);
    expectWhole(identity);
    expect(identity.headers.vary).toMatch(/accept-encoding/i);
    for (const encoding of ['gzip', 'br']) {
      const answer = await request(data, { headers: { 'accept-encoding': encoding } });
      expect(answer.headers['content-encoding']).toBe(encoding);
      expect(answer.headers.vary).toMatch(/accept-encoding/i);
      expectWhole(answer);
      expect(decoded(answer).equals(identity.body)).toBe(true);
      expect(answer.body.length).toBeLessThan(identity.body.length * 0.9);
    }
    const ranged = await request(data, { headers: { 'accept-encoding': 'gzip', range: 'bytes=0-9' } });
    expect(ranged.headers['content-encoding']).toBeUndefined();
    expect(decoded(ranged).subarray(0, 10).equals(identity.body.subarray(0, 10))).toBe(true);
  });

  it('makes a variant once for concurrent first requests and counts it in the cache budget', async () => {
    const { app, url } = shared();
    const roomId = room();
    const data = `${url}/api/specimens/ball/data?room_id=${roomId}`;
    await request(data);
    const before = (await request(`${url}/api/processing/cache/stats`)).body;
    const made = app.vitrine.variantsMade();
    const answers = await Promise.all(Array.from({ length: 6 }, () => request(data, { headers: { 'accept-encoding': 'gzip' } })));
    expect(app.vitrine.variantsMade()).toBe(made + 1);
    for (const answer of answers) expect(answer.body.equals(answers[0]!.body)).toBe(true);
    const after = JSON.parse((await request(`${url}/api/processing/cache/stats`)).body.toString());
    expect(after.total_bytes).toBe(JSON.parse(before.toString()).total_bytes + answers[0]!.body.length);
  });

  it('/invoke and /jobs/{id}/result answer compressed JSON, whole, equal to the identity JSON', async () => {
    const { url } = shared();
    const body = { function_name: 'cloud', kwargs: { count: 3000 }, room_id: room() };
    const plain = await request(`${url}/api/processing/invoke`, { body });
    const gz = await request(`${url}/api/processing/invoke`, { body, headers: { 'accept-encoding': 'gzip' } });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expectWhole(gz);
    expect(decoded(gz).equals(plain.body)).toBe(true);
    const start = JSON.parse((await request(`${url}/api/specimens/ramp-volume/start`, { body: { room_id: room() } })).body.toString());
    let result: Answer;
    do result = await request(`${url}/api/jobs/${start.job_id}/result`, { headers: { 'accept-encoding': 'br' } });
    while (result.status === 409);
    expect(result.status).toBe(200);
    expect(result.headers['content-encoding']).toBe('br');
    expectWhole(result);
    const json = JSON.parse(decoded(result).toString());
    expect(json.shape).toEqual(VOLUME_SHAPE);
  });

  it('static files are compressed once per version with Content-Length (no on-the-fly chunked gzip); ranges stay identity', async () => {
    const { url } = shared();
    const plain = await request(`${url}/api/specimens/stars/data`);
    const gz = await request(`${url}/api/specimens/stars/data`, { headers: { 'accept-encoding': 'gzip, deflate' } });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gz.headers['content-disposition']).toContain('stars.xyz');
    expectWhole(gz);
    expect(decoded(gz).equals(plain.body)).toBe(true);
    const json = await request(`${url}/api/specimens/listing/data`, { headers: { 'accept-encoding': 'gzip' } });
    expect(json.headers['content-type']).toContain('application/json');
    expect(json.headers['content-encoding']).toBe('gzip');
    expectWhole(json);
    expect(JSON.parse(decoded(json).toString()).points).toHaveLength(4000);
    const ranged = await request(`${url}/api/specimens/stars/data`, { headers: { 'accept-encoding': 'gzip', range: 'bytes=0-4' } });
    expect(ranged.status).toBe(206);
    expect(ranged.headers['content-encoding']).toBeUndefined();
    expect(ranged.body.equals(plain.body.subarray(0, 5))).toBe(true);
  });
});

describe('volume delivery', () => {
  it('dtype=uint8 with a window maps it linearly onto 0..255, rounded and clamped; value_range is the window', async () => {
    const { url } = shared();
    const volume = volumeOf(await request(`${url}/api/specimens/ramp-volume/data?dtype=uint8&window=0,50&room_id=${room()}`));
    expect(volume.dtype).toBe('uint8');
    expect(volume.shape).toEqual(VOLUME_SHAPE);
    expect(volume.preamble.value_range).toEqual([0, 50]);
    for (const i of [0, 1, 5000, 7000, 11999, VOLUME_COUNT - 1]) {
      const expected = Math.min(255, Math.max(0, Math.round((volumeValue(i) / 50) * 255)));
      expect(Math.abs(volume.data[i]! - expected)).toBeLessThanOrEqual(1);
    }
  });

  it('dtype=uint16 without a window maps the volume own range; POST takes a delivery object beside params', async () => {
    const { url } = shared();
    const get = await request(`${url}/api/specimens/ramp-volume/data?dtype=uint16&room_id=${room()}`);
    const volume = volumeOf(get);
    expect(volume.dtype).toBe('uint16');
    expect(volume.preamble.value_range).toEqual([-10, volumeValue(VOLUME_COUNT - 1)]);
    expect(volume.data[0]).toBe(0);
    expect(volume.data[VOLUME_COUNT - 1]).toBe(65535);
    const post = await request(`${url}/api/specimens/ramp-volume/data`, { body: { params: {}, room_id: room(), delivery: { dtype: 'uint16' } } });
    expect(post.body.equals(get.body)).toBe(true);
  });

  it('max_dim averages blocks and scales the spacing so the physical extent is kept', async () => {
    const { url } = shared();
    const volume = volumeOf(await request(`${url}/api/specimens/ramp-volume/data?max_dim=16&room_id=${room()}`, { headers: { 'accept-encoding': 'gzip' } }));
    expect(volume.shape).toEqual([14, 15, 10]);
    const spacing = volume.spacing!;
    expect(spacing.map((s, axis) => s * volume.shape[axis]!)).toEqual([40, 60, 60].map((v) => expect.closeTo(v, 9)));
    // The first sample is the mean of its 3×2×2 block.
    const block = [0, 1, 20, 21, 600, 601, 620, 621, 1200, 1201, 1220, 1221].map(volumeValue);
    expect(volume.data[0]).toBeCloseTo(block.reduce((a, b) => a + b, 0) / block.length, 3);
  });
});

describe('mesh delivery', () => {
  it('max_triangles simplifies within the budget, the bounding box within 2% of the diagonal; a mesh under it is unchanged', async () => {
    const { url } = shared();
    const roomId = room();
    const full = meshOf(await request(`${url}/api/specimens/ball/data?room_id=${roomId}`));
    const small = meshOf(await request(`${url}/api/specimens/ball/data?max_triangles=1000&room_id=${roomId}`, { headers: { 'accept-encoding': 'gzip' } }));
    expect(full.indices.length / 3).toBe(20000);
    expect(small.indices.length / 3).toBeLessThanOrEqual(1000);
    expect(small.indices.length / 3).toBeGreaterThan(100);
    expect(small.normals!.length).toBe(small.vertices.length);
    const a = bounds(full.vertices);
    const b = bounds(small.vertices);
    const diagonal = Math.hypot(...a.max.map((m, i) => m - a.min[i]!));
    for (let axis = 0; axis < 3; axis++) {
      expect(Math.abs(a.min[axis]! - b.min[axis]!)).toBeLessThanOrEqual(0.02 * diagonal);
      expect(Math.abs(a.max[axis]! - b.max[axis]!)).toBeLessThanOrEqual(0.02 * diagonal);
    }
    const same = await request(`${url}/api/specimens/ball/data?max_triangles=20000&room_id=${roomId}`);
    const identity = await request(`${url}/api/specimens/ball/data?room_id=${roomId}`);
    expect(same.body.equals(identity.body)).toBe(true);
  });
});

describe('known client profile', () => {
  const godot = { 'user-agent': 'GodotEngine/4.3.stable.official (Linux)', 'accept-encoding': 'gzip, deflate' };

  it('GodotEngine gets uint8 volumes over their value range, at most 256 per axis, and meshes within --headset-triangles', async () => {
    const { url } = await deliveryHost({ headsetTriangles: 800 });
    const long = await request(`${url}/api/specimens/long-volume/data?room_id=${room()}`, { headers: godot });
    expectWhole(long);
    const volume = volumeOf(long);
    expect(volume.dtype).toBe('uint8');
    expect(volume.shape).toEqual([150, 4, 2]);
    expect(volume.preamble.value_range).toEqual([0, 6]);
    const mesh = meshOf(await request(`${url}/api/specimens/ball/data?room_id=${room()}`, { headers: godot }));
    expect(mesh.indices.length / 3).toBeLessThanOrEqual(800);
    // Options it gives itself win over the profile.
    const asked = volumeOf(await request(`${url}/api/specimens/ramp-volume/data?dtype=float32&room_id=${room()}`, { headers: godot }));
    expect(asked.dtype).toBe('float32');
    expect(asked.shape).toEqual(VOLUME_SHAPE);
  });

  it('applies to a static .npy volume, and --client-profiles off turns it off', async () => {
    const on = shared();
    const staticVolume = volumeOf(await request(`${on.url}/api/specimens/vol/data`, { headers: godot }));
    expect(staticVolume.dtype).toBe('uint8');
    expect(staticVolume.preamble.value_range).toEqual([0, 23]);
    expect(Array.from(staticVolume.data)).toEqual(Array.from({ length: 24 }, (_, i) => Math.round((i * 255) / 23)));
    expect(staticVolume.spacing).toEqual([1, 2, 3]);
    const off = await deliveryHost({ clientProfiles: false });
    const plain = volumeOf(await request(`${off.url}/api/specimens/ramp-volume/data?room_id=${room()}`, { headers: godot }));
    expect(plain.dtype).toBe('float32');
  });
});

describe('bad delivery options', () => {
  it.each([
    ['frobnicate=1', 'frobnicate'],
    ['max_dim=-1', 'max_dim'],
    ['dtype=int7', 'dtype'],
    ['window=5,1', 'window'],
    ['max_triangles=10', 'max_triangles'],
    ['format=glb', 'format'],
    ['format=npy&compress=meshopt', 'compress'],
  ])('GET /data?%s on a volume is a 400 naming %s', async (query, name) => {
    const { url } = shared();
    const answer = await request(`${url}/api/specimens/ramp-volume/data?${query}`);
    expect(answer.status).toBe(400);
    const body = JSON.parse(answer.body.toString());
    expect(body.code).toMatch(/^SPC_ERR_DELIVERY_/);
    expect(body.detail).toContain(name);
  });

  it('refuses max_triangles=0 on a mesh, a bad POST delivery, and options on a plain static file', async () => {
    const { url } = shared();
    const zero = await request(`${url}/api/specimens/ball/data?max_triangles=0`);
    expect(zero.status).toBe(400);
    expect(JSON.parse(zero.body.toString()).detail).toContain('max_triangles');
    const post = await request(`${url}/api/specimens/ball/data`, { body: { delivery: { dtype: 'uint8' } } });
    expect(post.status).toBe(400);
    expect(JSON.parse(post.body.toString()).detail).toContain('dtype');
    const file = await request(`${url}/api/specimens/stars/data?max_dim=4`);
    expect(file.status).toBe(400);
    expect(JSON.parse(file.body.toString()).detail).toContain('max_dim');
  });
});
