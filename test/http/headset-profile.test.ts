/**
 * A Godot headset client (User-Agent `GodotEngine/...`) gets what it can show without asking:
 * volumes of any element type and axis lengths as uint8 with every axis at most 256 and the
 * physical extent kept through the spacing (the three shapes real sessions publish: a
 * 200x1012x456 uint8 CT, a 151x302x302 uint16 membrane, an int16 and a float64 volume),
 * meshes within the headset triangle budget, and static GLB and PLY meshes as binary STL named
 * `<stem>.stl`. Any option the client names, or `clientProfiles: false`, turns this off.
 */
import { copyFile, mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../core/app.ts';
import { decodeEnvelope, type DecodedMesh, type DecodedVolume } from '../../core/envelope/decode-envelope.ts';
import { parseGlb } from '../../core/formats/glb/parse-glb.ts';
import { parseStl } from '../../core/formats/stl/parse-stl.ts';
import { addDynamicSpecimen, room } from '../helpers/create-test-app.ts';
import { fixturePluginsDir } from '../helpers/fixture-plugins.ts';
import { makeSpecimensDir } from '../helpers/specimens-dir.ts';

const GODOT = { 'user-agent': 'GodotEngine/4.3.stable.official (Linux)' };
const KNOT = new URL('../../specimens/cinquefoil-knot/cinquefoil-knot.glb', import.meta.url);

/** A binary PLY of one square (two triangles) or, without faces, of its four corners. */
function plyBytes(faces: boolean): Buffer {
  const header = ['ply', 'format binary_little_endian 1.0', 'element vertex 4', 'property float x', 'property float y', 'property float z'];
  if (faces) header.push('element face 2', 'property list uchar uint vertex_indices');
  header.push('end_header', '');
  const vertices = Buffer.alloc(48);
  [0, 0, 0, 1, 0, 0, 1, 1, 0, 0, 1, 0].forEach((v, i) => vertices.writeFloatLE(v, i * 4));
  const parts = [Buffer.from(header.join('\n'), 'latin1'), vertices];
  if (faces) {
    for (const tri of [[0, 1, 2], [0, 2, 3]]) {
      const face = Buffer.alloc(13);
      face[0] = 3;
      tri.forEach((v, i) => face.writeUInt32LE(v, 1 + i * 4));
      parts.push(face);
    }
  }
  return Buffer.concat(parts);
}

let app: FastifyInstance;
let url: string;

beforeAll(async () => {
  const specimens = await makeSpecimensDir();
  const folder = async (name: string, file: string, type: string) => {
    await mkdir(join(specimens, name), { recursive: true });
    await writeFile(join(specimens, name, 'specimen.json'), JSON.stringify({ display_name: name, type, data_file: file }));
  };
  await folder('knot', 'cinquefoil-knot.glb', 'mesh');
  await copyFile(KNOT, join(specimens, 'knot', 'cinquefoil-knot.glb'));
  await folder('square', 'square.ply', 'mesh');
  await writeFile(join(specimens, 'square', 'square.ply'), plyBytes(true));
  await folder('corners', 'corners.ply', 'point_cloud');
  await writeFile(join(specimens, 'corners', 'corners.ply'), plyBytes(false));
  app = await createApp({
    pluginsDir: await fixturePluginsDir(),
    specimensDir: specimens,
    logLevel: false,
    poolSize: 2,
    viewer: false,
    headsetTriangles: 3000,
  });
  addDynamicSpecimen(app, 'sized', 'sized_volume');
  addDynamicSpecimen(app, 'dense', 'dense_mesh');
  url = await app.listen({ host: '127.0.0.1', port: 0 });
});
afterAll(() => app?.close());

async function data(id: string, query: Record<string, string>, headers: Record<string, string> = GODOT): Promise<Response> {
  const search = new URLSearchParams({ room_id: room(), ...query });
  return fetch(`${url}/api/specimens/${id}/data?${search}`, { headers });
}

async function volume(params: object, headers?: Record<string, string>): Promise<DecodedVolume> {
  const res = await data('sized', { params: JSON.stringify(params) }, headers);
  expect(res.status).toBe(200);
  const decoded = decodeEnvelope(await res.arrayBuffer());
  expect(decoded.type).toBe('volume');
  return decoded as DecodedVolume;
}

describe('volumes for a Godot client', () => {
  const SPACING = [0.9, 0.45, 0.45];
  const cases = [
    { shape: [200, 1012, 456], dtype: 'uint8', delivered: [200, 253, 228] },
    { shape: [151, 302, 302], dtype: 'uint16', delivered: [151, 151, 151] },
    { shape: [90, 520, 60], dtype: 'int16', delivered: [90, 174, 60] },
    { shape: [300, 70, 257], dtype: 'float64', delivered: [150, 70, 129] },
  ] as const;
  for (const c of cases) {
    it(`${c.shape.join('x')} ${c.dtype} arrives as uint8 within 256 per axis, its extent kept`, async () => {
      const [depth, height, width] = c.shape;
      const got = await volume({ depth, height, width, dtype: c.dtype });
      expect(got.dtype).toBe('uint8');
      expect(got.shape).toEqual(c.delivered);
      expect(Math.max(...got.shape)).toBeLessThanOrEqual(256);
      // Physical extent along each axis: samples times spacing, as the plugin gave it.
      got.shape.forEach((n, axis) => expect(n * got.spacing![axis]!).toBeCloseTo(c.shape[axis]! * SPACING[axis]!, 6));
      // The whole uint8 range is used: the window is the volume's own value range.
      let lo = 255;
      let hi = 0;
      for (const v of got.data as Uint8Array) {
        lo = Math.min(lo, v);
        hi = Math.max(hi, v);
      }
      expect(lo).toBeLessThan(hi);
      expect(got.value_range![0]).toBeLessThan(got.value_range![1]);
    });
  }

  it('averages blocks and maps the value range onto 0..255', async () => {
    const params = { depth: 40, height: 302, width: 302, dtype: 'uint16' };
    const full = await volume(params, {});
    expect(full.dtype).toBe('uint16');
    const got = await volume(params);
    const [lo, hi] = got.value_range!;
    expect([lo, hi]).toEqual(full.value_range);
    const src = full.data as Uint16Array;
    // Every 997th delivered sample against the mean of its 1x2x2 block of the original.
    for (let i = 0; i < got.data.length; i += 997) {
      const x = i % 151;
      const y = Math.floor(i / 151) % 151;
      const z = Math.floor(i / (151 * 151));
      let sum = 0;
      for (const dy of [0, 1]) for (const dx of [0, 1]) sum += src[(z * 302 + 2 * y + dy) * 302 + 2 * x + dx]!;
      const want = Math.round(((sum / 4 - lo) * 255) / (hi - lo));
      expect(Math.abs(got.data[i]! - want), `sample ${i}`).toBeLessThanOrEqual(1);
    }
  });

  it('keeps what the client asks for, and nothing changes with profiles off', async () => {
    const asked = await data('sized', { params: JSON.stringify({ depth: 20, height: 300, width: 20 }), max_dim: '100' });
    const decoded = decodeEnvelope(await asked.arrayBuffer()) as DecodedVolume;
    expect([decoded.dtype, decoded.shape]).toEqual(['uint16', [20, 100, 20]]);
    const off = await createApp({
      pluginsDir: await fixturePluginsDir(),
      specimensDir: null,
      logLevel: false,
      poolSize: 1,
      viewer: false,
      clientProfiles: false,
    });
    try {
      addDynamicSpecimen(off, 'sized', 'sized_volume');
      const res = await off.inject({ url: `/api/specimens/sized/data?params=${encodeURIComponent('{"depth":10,"height":300,"width":10}')}`, headers: GODOT });
      const plain = decodeEnvelope(res.rawPayload) as DecodedVolume;
      expect([plain.dtype, plain.shape]).toEqual(['uint16', [10, 300, 10]]);
    } finally {
      await off.close();
    }
  });
});

describe('meshes for a Godot client', () => {
  it('arrive within the headset triangle budget', async () => {
    const res = await data('dense', { params: JSON.stringify({ triangles: 20000 }) });
    const mesh = decodeEnvelope(await res.arrayBuffer()) as DecodedMesh;
    expect(mesh.indices.length / 3).toBeGreaterThan(1000);
    expect(mesh.indices.length / 3).toBeLessThanOrEqual(3000);
    const browser = decodeEnvelope(await (await data('dense', { params: JSON.stringify({ triangles: 20000 }) }, {})).arrayBuffer()) as DecodedMesh;
    expect(browser.indices.length / 3).toBeGreaterThan(19000);
  });

  it('a static GLB arrives as a valid binary STL named <stem>.stl, within the budget', async () => {
    const res = await data('knot', {});
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('model/stl');
    expect(res.headers.get('content-disposition')).toBe('attachment; filename="cinquefoil-knot.stl"');
    const bytes = Buffer.from(await res.arrayBuffer());
    const count = bytes.readUInt32LE(80);
    expect(bytes.length).toBe(84 + 50 * count);
    const glb = await parseGlb(await import('node:fs/promises').then((fs) => fs.readFile(KNOT)));
    expect(glb.type).toBe('mesh');
    const triangles = (glb as { indices: Uint32Array }).indices.length / 3;
    // The knot has more triangles than this host's budget of 3000: simplified to fit.
    expect(triangles).toBeGreaterThan(3000);
    expect(count).toBeLessThanOrEqual(3000);
    expect(count).toBeGreaterThan(1000);
    const stl = parseStl(bytes);
    expect(stl.type).toBe('mesh');
    // HEAD says what GET sends.
    const head = await fetch(`${url}/api/specimens/knot/data`, { method: 'HEAD', headers: { ...GODOT, 'accept-encoding': 'identity' } });
    expect([head.status, head.headers.get('content-type'), head.headers.get('content-length')]).toEqual([200, 'model/stl', String(bytes.length)]);
    // Browsers and other clients still get the file itself.
    const plain = await data('knot', {}, {});
    expect(plain.headers.get('content-type')).toBe('model/gltf-binary');
    expect(Buffer.from(await plain.arrayBuffer()).subarray(0, 4).toString('latin1')).toBe('glTF');
  });

  it('a static PLY mesh arrives as STL; a PLY of points travels as it is', async () => {
    const square = await data('square', {});
    expect(square.headers.get('content-disposition')).toBe('attachment; filename="square.stl"');
    const bytes = Buffer.from(await square.arrayBuffer());
    expect([bytes.length, bytes.readUInt32LE(80)]).toEqual([84 + 100, 2]);
    const corners = await data('corners', {});
    expect(corners.status).toBe(200);
    expect(Buffer.from(await corners.arrayBuffer()).equals(plyBytes(false))).toBe(true);
  });
});
