import { mkdtemp, readdir, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { spawnSync } from 'node:child_process';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeEnvelope } from '../../core/envelope/decode-envelope.ts';
import { scanSpecimensDir } from '../../core/catalog/specimen-scanner.ts';
import type { SpecimenRecord } from '../../core/catalog/specimen-record.ts';
import { catalogTestApp } from './helpers/catalog-test-app.ts';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const specimensDir = path.join(repoRoot, 'specimens');

let records: SpecimenRecord[];
let problems: string[];
let app: FastifyInstance;

beforeAll(async () => {
  ({ records, problems } = await scanSpecimensDir(specimensDir));
  app = catalogTestApp(records);
  await app.ready();
});

afterAll(async () => {
  await app.close();
});

function record(id: string): SpecimenRecord {
  const found = records.find((r) => r.id === id);
  if (!found) throw new Error(`missing example ${id}`);
  return found;
}

describe('the example specimens in specimens/', () => {
  it('scan without problems', () => {
    expect(problems).toEqual([]);
    expect(records.map((r) => r.id)).toEqual([
      'brain-mri',
      'cinquefoil-knot',
      'ct-head-phantom',
      'sunflower-spiral',
      'torus-with-sliders',
      'trefoil-knot',
      'two-arm-galaxy',
    ]);
    for (const r of records) {
      expect(r.display_name.length, r.id).toBeGreaterThan(0);
      expect(r.description.length, r.id).toBeGreaterThan(0);
      expect(r.story, r.id).not.toBeNull();
      expect(r.thumbnail.kind, r.id).toBe('file');
    }
  });

  it('stay small (the whole folder under 3 MB, each data file under 1 MB)', async () => {
    let total = 0;
    for (const folder of await readdir(specimensDir)) {
      for (const name of await readdir(path.join(specimensDir, folder))) {
        const size = (await stat(path.join(specimensDir, folder, name))).size;
        expect(size, `${folder}/${name}`).toBeLessThan(1 << 20);
        total += size;
      }
    }
    expect(total).toBeLessThan(3 << 20);
  });

  it('serve every thumbnail as a PNG', async () => {
    for (const r of records) {
      const res = await app.inject({ method: 'GET', url: `/api/specimens/${r.id}/thumbnail` });
      expect(res.statusCode, r.id).toBe(200);
      expect(res.headers['content-type']).toBe('image/png');
      expect(res.rawPayload.subarray(1, 4).toString('latin1')).toBe('PNG');
      expect(res.rawPayload.readUInt32BE(16), r.id).toBeGreaterThanOrEqual(128); // IHDR width
    }
  });

  it('serve the trefoil as an OBJ the headset client can open: vertices, normals and faces that index them', async () => {
    const res = await app.inject({ method: 'GET', url: '/api/specimens/trefoil-knot/data' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-disposition']).toBe('attachment; filename="trefoil-knot.obj"');
    expect(Number(res.headers['content-length'])).toBe(res.rawPayload.length);
    const lines = res.body.split('\n');
    const vertices = lines.filter((l) => l.startsWith('v ')).length;
    const normals = lines.filter((l) => l.startsWith('vn ')).length;
    const faces = lines.filter((l) => l.startsWith('f '));
    expect(vertices).toBe(3840);
    expect(normals).toBe(vertices);
    expect(faces).toHaveLength(7680);
    for (const face of faces) {
      for (const corner of face.slice(2).split(' ')) {
        const [v, , n] = corner.split('/').map(Number);
        expect(v! >= 1 && v! <= vertices && v === n).toBe(true);
      }
    }
  });

  it('serve the knot as a well-formed binary glTF', async () => {
    const res = await app.inject({ method: 'GET', url: '/api/specimens/cinquefoil-knot/data' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('model/gltf-binary');
    expect(res.headers['content-disposition']).toBe('attachment; filename="cinquefoil-knot.glb"');
    const glb = res.rawPayload;
    expect(glb.toString('ascii', 0, 4)).toBe('glTF');
    expect(glb.readUInt32LE(8)).toBe(glb.length);
    const jsonLength = glb.readUInt32LE(12);
    const gltf = JSON.parse(glb.toString('utf8', 20, 20 + jsonLength)) as {
      accessors: { bufferView: number; count: number; componentType: number; type: string }[];
      bufferViews: { byteOffset: number; byteLength: number }[];
      buffers: { byteLength: number }[];
    };
    const binLength = glb.readUInt32LE(20 + jsonLength);
    expect(binLength).toBe(gltf.buffers[0]!.byteLength);
    const sizes: Record<number, number> = { 5126: 4, 5125: 4, 5123: 2 };
    const components: Record<string, number> = { VEC3: 3, SCALAR: 1 };
    for (const accessor of gltf.accessors) {
      const view = gltf.bufferViews[accessor.bufferView]!;
      expect(accessor.count * sizes[accessor.componentType]! * components[accessor.type]!).toBe(view.byteLength);
      expect(view.byteOffset + view.byteLength).toBeLessThanOrEqual(binLength);
    }
    // Every index names an existing vertex.
    const indexView = gltf.bufferViews[gltf.accessors[2]!.bufferView]!;
    const binStart = 20 + jsonLength + 8;
    const vertexCount = gltf.accessors[0]!.count;
    const indexSize = sizes[gltf.accessors[2]!.componentType]!;
    for (let o = 0; o < indexView.byteLength; o += indexSize) {
      const i = indexSize === 2 ? glb.readUInt16LE(binStart + indexView.byteOffset + o) : glb.readUInt32LE(binStart + indexView.byteOffset + o);
      if (i >= vertexCount) throw new Error(`index ${i} out of range`);
    }
  });

  it('serve the phantom as a 64³ uint8 volume envelope with the sidecar geometry', async () => {
    const res = await app.inject({ method: 'GET', url: '/api/specimens/ct-head-phantom/data' });
    expect(res.statusCode).toBe(200);
    const volume = decodeEnvelope(res.rawPayload);
    if (volume.type !== 'volume') throw new Error('not a volume');
    expect(volume.shape).toEqual([64, 64, 64]);
    expect(volume.dtype).toBe('uint8');
    expect(volume.spacing).toEqual([3, 3, 3]);
    expect(volume.origin).toEqual([-96, -96, -96]);
    // The skull (bright) surrounds darker brain; the corners are air.
    const at = (z: number, y: number, x: number): number => volume.data[(z * 64 + y) * 64 + x]!;
    expect(at(32, 32, 32)).toBeGreaterThan(at(0, 0, 0));
    const skull = Math.max(...[8, 9, 10, 11, 12].map((x) => at(32, 32, x)));
    expect(skull).toBeGreaterThan(at(32, 32, 32) + 100);
  });

  it('serve the real brain MRI in scanner millimetres (its bytes checked against the NIfTI by the generator test)', async () => {
    const res = await app.inject({ method: 'GET', url: '/api/specimens/brain-mri/data' });
    expect(res.statusCode).toBe(200);
    const volume = decodeEnvelope(res.rawPayload);
    if (volume.type !== 'volume') throw new Error('not a volume');
    // 57 x 67 x 56 (x, y, z) in the file: (z, y, x) here, its affine's steps and first voxel.
    expect(volume.shape).toEqual([56, 67, 57]);
    expect(volume.dtype).toBe('uint8');
    expect(volume.spacing).toEqual([2.75, 2.75, 2.75]);
    expect(volume.origin).toEqual([-91, -91, -78]);
    // A head: bright tissue in the middle, air in the corners.
    const at = (z: number, y: number, x: number): number => volume.data[(z * 67 + y) * 57 + x]!;
    expect(at(28, 33, 28)).toBeGreaterThan(100);
    expect(at(0, 0, 0)).toBeLessThan(20);
    expect(String(record('brain-mri').story)).toContain('licence');
  });

  it('serve the image and the point cloud as files', async () => {
    const image = await app.inject({ method: 'GET', url: '/api/specimens/sunflower-spiral/data' });
    expect(image.headers['content-type']).toBe('image/png');
    expect(image.rawPayload.equals(await readFile(path.join(specimensDir, 'sunflower-spiral', 'sunflower.png')))).toBe(true);
    const cloud = await app.inject({ method: 'GET', url: '/api/specimens/two-arm-galaxy/data' });
    const lines = cloud.body.trim().split('\n');
    expect(lines).toHaveLength(9000);
    expect(lines[0]!.split(' ')).toHaveLength(6);
  });

  it('describe a dynamic specimen with a schema refinement', () => {
    const torus = record('torus-with-sliders');
    expect(torus.is_dynamic).toBe(true);
    expect(torus.function_name).toBe('torus');
    expect(torus.data).toBeUndefined();
    expect(torus.schema_override).toMatchObject({ properties: { major_radius: { minimum: 0.5, maximum: 3 } } });
  });

  it('are exactly what the generator writes', async () => {
    const out = await mkdtemp(path.join(tmpdir(), 'vitrine-examples-'));
    try {
      const run = spawnSync(process.execPath, ['--import', 'tsx', 'test/fixtures/specimens/generate-examples.ts', out], { cwd: repoRoot, encoding: 'utf8' });
      expect(run.status, run.stderr).toBe(0);
      for (const folder of await readdir(out)) {
        for (const name of await readdir(path.join(out, folder))) {
          const fresh = await readFile(path.join(out, folder, name));
          const committed = await readFile(path.join(specimensDir, folder, name));
          expect(fresh.equals(committed), `${folder}/${name}`).toBe(true);
        }
      }
    } finally {
      await rm(out, { recursive: true, force: true });
    }
  });
});
