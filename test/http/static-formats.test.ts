/**
 * Static data files travel like computed results: the example `.glb` and `.obj` meshes in
 * every mesh format (read back with the same readers the download-format tests use), shaped
 * by `max_triangles`; the example CT phantom with an X-Result-Id whose OME-Zarr store opens in
 * zarrita and holds the `.npy` file's samples with its sidecar geometry. A file that does not
 * parse, and options on a file no parser reads, are clear errors.
 */
import { copyFile, mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { NodeIO } from '@gltf-transform/core';
import type { FastifyInstance } from 'fastify';
import { OBJLoader } from 'three/examples/jsm/loaders/OBJLoader.js';
import { STLLoader } from 'three/examples/jsm/loaders/STLLoader.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as zarr from 'zarrita';
import { parseNpyHeader } from '../../core/formats/npy/npy-header.ts';
import { decodeEnvelope } from '../../core/envelope/decode-envelope.ts';
import { createApp } from '../../core/app.ts';
import { makeSpecimensDir } from '../helpers/specimens-dir.ts';

const EXAMPLES = join(import.meta.dirname, '..', '..', 'specimens');

let app: FastifyInstance;
let url: string;

/** Copies example specimen folders into a fresh specimens directory. */
async function copyExample(dir: string, id: string, files: string[]): Promise<void> {
  await mkdir(join(dir, id), { recursive: true });
  for (const file of files) await copyFile(join(EXAMPLES, id, file), join(dir, id, file));
}

beforeAll(async () => {
  const dir = await makeSpecimensDir();
  await copyExample(dir, 'cinquefoil-knot', ['specimen.json', 'cinquefoil-knot.glb']);
  await copyExample(dir, 'trefoil-knot', ['specimen.json', 'trefoil-knot.obj']);
  await copyExample(dir, 'ct-head-phantom', ['specimen.json', 'head-phantom.npy', 'head-phantom.json']);
  await copyExample(dir, 'two-arm-galaxy', ['specimen.json', 'galaxy.xyz']);
  await mkdir(join(dir, 'broken-stl'), { recursive: true });
  await writeFile(join(dir, 'broken-stl', 'broken.stl'), 'solid nothing but words');
  await writeFile(join(dir, 'broken-stl', 'specimen.json'), JSON.stringify({ display_name: 'Broken', type: 'mesh', data_file: 'broken.stl' }));
  app = await createApp({ specimensDir: dir, pluginsDir: join(dir, 'no-plugins'), logLevel: false, poolSize: 2, viewer: false });
  url = await app.listen({ host: '127.0.0.1', port: 0 });
});

afterAll(() => app?.close());

async function get(path: string): Promise<{ res: Response; bytes: Uint8Array }> {
  const res = await fetch(`${url}${path}`);
  return { res, bytes: new Uint8Array(await res.arrayBuffer()) };
}

/** Triangle count of the example GLB, read with glTF-Transform. */
async function glbTriangles(bytes: Uint8Array): Promise<number> {
  const doc = await new NodeIO().readBinary(bytes);
  let triangles = 0;
  for (const mesh of doc.getRoot().listMeshes())
    for (const prim of mesh.listPrimitives()) triangles += (prim.getIndices()?.getCount() ?? prim.getAttribute('POSITION')!.getCount()) / 3;
  return triangles;
}

describe('a static mesh file in every mesh format', () => {
  it('format=stl on the example .glb is a binary STL with every triangle of the file', async () => {
    const file = await get('/api/specimens/cinquefoil-knot/data');
    expect(file.res.headers.get('content-type')).toBe('model/gltf-binary');
    const triangles = await glbTriangles(file.bytes);
    expect(triangles).toBeGreaterThan(1000);

    const stl = await get('/api/specimens/cinquefoil-knot/data?format=stl');
    expect(stl.res.status).toBe(200);
    expect(stl.res.headers.get('content-type')).toBe('model/stl');
    expect(stl.res.headers.get('content-disposition')).toBe('attachment; filename="cinquefoil-knot.stl"');
    expect(stl.res.headers.get('x-result-id')).toMatch(/^[0-9a-f]{64}$/);
    expect(stl.bytes.byteLength).toBe(84 + 50 * triangles);
    const geometry = new STLLoader().parse(stl.bytes.slice().buffer);
    expect(geometry.getAttribute('position').count).toBe(3 * triangles);
  });

  it('the example .obj downloads as GLB and the .glb as OBJ; max_triangles shapes a file like a result', async () => {
    const glb = await get('/api/specimens/trefoil-knot/data?format=glb');
    expect(glb.res.headers.get('content-type')).toBe('model/gltf-binary');
    expect(glb.res.headers.get('content-disposition')).toBe('attachment; filename="trefoil-knot.glb"');
    const objText = await readFile(join(EXAMPLES, 'trefoil-knot', 'trefoil-knot.obj'), 'utf8');
    const faces = objText.split('\n').filter((line) => line.startsWith('f ')).length;
    expect(await glbTriangles(glb.bytes)).toBe(faces);

    const obj = await get('/api/specimens/cinquefoil-knot/data?format=obj');
    expect(obj.res.headers.get('content-disposition')).toBe('attachment; filename="cinquefoil-knot.obj"');
    const group = new OBJLoader().parse(new TextDecoder().decode(obj.bytes));
    let positions = 0;
    group.traverse((node) => {
      const geometry = (node as { geometry?: { getAttribute(name: string): { count: number } } }).geometry;
      if (geometry) positions += geometry.getAttribute('position').count;
    });
    expect(positions).toBe(3 * (await glbTriangles((await get('/api/specimens/cinquefoil-knot/data')).bytes)));

    const small = await get('/api/specimens/cinquefoil-knot/data?max_triangles=2000');
    expect(small.res.headers.get('content-type')).toBe('application/x-service-envelope-v1');
    const mesh = decodeEnvelope(small.bytes);
    if (mesh.type !== 'mesh') throw new Error('not a mesh');
    expect(mesh.indices!.length / 3).toBeLessThanOrEqual(2000);
    expect(mesh.indices!.length).toBeGreaterThan(0);
  });

  it('a file that does not parse names the specimen and why; options on a file no parser reads are a 400', async () => {
    const broken = await get('/api/specimens/broken-stl/data?format=glb');
    expect(broken.res.status).toBe(500);
    const body = JSON.parse(new TextDecoder().decode(broken.bytes)) as { code: string; detail: string };
    expect(body.code).toBe('SPC_ERR_SPECIMEN_FILE_INVALID');
    expect(body.detail).toContain("'broken-stl'");
    const xyz = await get('/api/specimens/two-arm-galaxy/data?format=ply');
    expect(xyz.res.status).toBe(400);
    expect(JSON.parse(new TextDecoder().decode(xyz.bytes)).detail).toContain('format');
    // The host is unharmed: the file as it is still streams.
    expect((await get('/api/specimens/cinquefoil-knot/data')).res.status).toBe(200);
  });
});

describe('a static volume file', () => {
  it('the example CT phantom carries an X-Result-Id whose OME-Zarr store holds the .npy samples and sidecar geometry', async () => {
    const first = await get('/api/specimens/ct-head-phantom/data');
    expect(first.res.status).toBe(200);
    const id = first.res.headers.get('x-result-id');
    expect(id).toMatch(/^[0-9a-f]{64}$/);
    expect((await get('/api/specimens/ct-head-phantom/data')).res.headers.get('x-result-id')).toBe(id);

    const npy = await readFile(join(EXAMPLES, 'ct-head-phantom', 'head-phantom.npy'));
    const header = parseNpyHeader(npy);
    const samples = npy.subarray(header.dataOffset);
    const store = new zarr.FetchStore(`${url}/api/results/${id}.zarr`);
    const group = await zarr.open.v2(zarr.root(store), { kind: 'group' });
    const multiscale = (group.attrs as { multiscales: { datasets: { coordinateTransformations: unknown[] }[] }[] }).multiscales[0]!;
    expect(multiscale.datasets[0]!.coordinateTransformations).toEqual([
      { type: 'scale', scale: [3, 3, 3] },
      { type: 'translation', translation: [-96, -96, -96] },
    ]);
    const array = await zarr.open.v2(zarr.root(store).resolve('0'), { kind: 'array' });
    expect(array.shape).toEqual(header.shape);
    expect(array.dtype).toBe('uint8');
    const whole = await zarr.get(array);
    const data = whole.data as Uint8Array;
    expect(data.length).toBe(samples.length);
    expect(samples.findIndex((v, i) => data[i] !== v), 'first sample that differs').toBe(-1);
  });

  it('a shaped delivery of the phantom is a result of its own with its own store', async () => {
    const shaped = await get('/api/specimens/ct-head-phantom/data?format=npy&max_dim=16');
    expect(shaped.res.headers.get('content-disposition')).toBe('attachment; filename="ct-head-phantom.npy"');
    expect(parseNpyHeader(Buffer.from(shaped.bytes)).shape).toEqual([16, 16, 16]);
    const id = shaped.res.headers.get('x-result-id');
    const zattrs = await fetch(`${url}/api/results/${id}.zarr/.zattrs`);
    expect(zattrs.status).toBe(200);
  });
});
