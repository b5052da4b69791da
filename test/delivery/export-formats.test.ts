/**
 * Every export format round-trips through a real reader: glTF-Transform (with meshoptimizer's
 * decoder) for GLB, three's STL, OBJ and PLY loaders, pngjs for PNG and the host's own .npy
 * header reader. What the reader parses back equals the result, within the quantisation of
 * the meshopt GLB (positions on a 14-bit grid over the bounding box, normals in 8 bits).
 */
import { NodeIO, type Document } from '@gltf-transform/core';
import { EXTMeshoptCompression, KHRMeshQuantization } from '@gltf-transform/extensions';
import { MeshoptDecoder } from 'meshoptimizer';
import { PNG } from 'pngjs';
import { OBJLoader } from 'three/examples/jsm/loaders/OBJLoader.js';
import { PLYLoader } from 'three/examples/jsm/loaders/PLYLoader.js';
import { STLLoader } from 'three/examples/jsm/loaders/STLLoader.js';
import { ColorManagement, type BufferGeometry, type Mesh } from 'three';
import { describe, expect, it } from 'vitest';
import { parseNpyHeader } from '../../core/formats/npy/npy-header.ts';
import type { DeliveryOptions } from '../../core/delivery/delivery-options.ts';
import { formatEncoder } from '../../core/delivery/formats.ts';
import { FILE_ENCODERS } from '../../core/delivery/file-encoders.ts';
import type { StoredResult } from '../../core/results/stored-result.ts';
import { POSITION_BITS, quantizePositions } from '../../core/formats/glb/encode-glb.ts';
import { byteVolume, cloud, image, rampVolume, wavyGrid, type MeshSample } from './sample-results.ts';

const NAMES = { baseName: 'specimen', envelopeMediaType: 'application/x-service-envelope-v1' };

/** The bytes of `result` in `format`, through the format registry as the host finds them. */
async function encodeExport(result: StoredResult, format: string, options: DeliveryOptions): Promise<Uint8Array> {
  const parts = await formatEncoder(result.type, format).encode(result, { format, ...options }, NAMES);
  expect(parts).toHaveLength(1);
  return parts[0]!;
}

const arrayBufferOf = (bytes: Uint8Array): ArrayBuffer => bytes.slice().buffer;

/** The glTF JSON chunk of a GLB. */
function glbJson(glb: Uint8Array): { extensionsRequired?: string[]; extensionsUsed?: string[]; accessors: { componentType: number; normalized?: boolean }[] } {
  const view = new DataView(glb.buffer, glb.byteOffset, glb.byteLength);
  expect(view.getUint32(0, true)).toBe(0x46546c67); // 'glTF'
  const length = view.getUint32(12, true);
  return JSON.parse(new TextDecoder().decode(glb.subarray(20, 20 + length)));
}

async function readGlb(glb: Uint8Array): Promise<Document> {
  await MeshoptDecoder.ready;
  return new NodeIO()
    .registerExtensions([EXTMeshoptCompression, KHRMeshQuantization])
    .registerDependencies({ 'meshopt.decoder': MeshoptDecoder })
    .readBinary(glb);
}

/** A triangle as vertex ids, rotated so the smallest comes first (winding kept). */
function canonical(a: number, b: number, c: number): string {
  const m = Math.min(a, b, c);
  return m === a ? `${a},${b},${c}` : m === b ? `${b},${c},${a}` : `${c},${a},${b}`;
}

function triangleSet(indices: ArrayLike<number>, id: (v: number) => number): string[] {
  const out: string[] = [];
  for (let t = 0; t < indices.length; t += 3) out.push(canonical(id(indices[t]!), id(indices[t + 1]!), id(indices[t + 2]!)));
  return out.sort();
}

/**
 * Checks a decoded GLB against the mesh: every decoded vertex is the quantised grid point of an
 * original vertex (the samples' vertices lie on distinct grid points), the node transform
 * takes it back within half a grid step, normals agree, and the triangles are the same
 * triangles with the same winding.
 */
function expectSameMesh(doc: Document, mesh: MeshSample, tolerance: { position: number; normal: number }): void {
  const node = doc.getRoot().listNodes()[0]!;
  const primitive = node.getMesh()!.listPrimitives()[0]!;
  const position = primitive.getAttribute('POSITION')!;
  const normal = primitive.getAttribute('NORMAL');
  const [tx, ty, tz] = node.getTranslation();
  const [sx, sy, sz] = node.getScale();
  const { q } = quantizePositions(mesh.vertices);
  const byGridPoint = new Map<string, number>();
  for (let v = 0; v < q.length / 3; v++) byGridPoint.set(Array.from(q.subarray(v * 3, v * 3 + 3)).join(','), v);
  expect(byGridPoint.size).toBe(mesh.vertices.length / 3);
  const originalOf: number[] = [];
  const element: number[] = [];
  const unmatched: number[] = [];
  let positionError = 0;
  let normalError = 0;
  for (let v = 0; v < position.getCount(); v++) {
    position.getElement(v, element);
    const original = byGridPoint.get(element.slice(0, 3).join(','));
    if (original === undefined) {
      unmatched.push(v);
      continue;
    }
    originalOf[v] = original;
    const p = [element[0]! * sx + tx, element[1]! * sy + ty, element[2]! * sz + tz];
    for (let c = 0; c < 3; c++) positionError = Math.max(positionError, Math.abs(p[c]! - mesh.vertices[original * 3 + c]!));
    if (mesh.normals) {
      normal!.getElement(v, element);
      const length = Math.hypot(element[0]!, element[1]!, element[2]!);
      for (let c = 0; c < 3; c++) normalError = Math.max(normalError, Math.abs(element[c]! / length - mesh.normals[original * 3 + c]!));
    }
  }
  expect(unmatched, 'decoded vertices that match no original vertex').toEqual([]);
  expect(position.getCount()).toBe(mesh.vertices.length / 3);
  expect(positionError).toBeLessThanOrEqual(tolerance.position);
  expect(normalError).toBeLessThanOrEqual(tolerance.normal);
  expect(Boolean(normal)).toBe(Boolean(mesh.normals));
  expect(triangleSet(primitive.getIndices()!.getArray()!, (v) => originalOf[v]!)).toEqual(triangleSet(mesh.indices, (v) => v));
}

describe('GLB', () => {
  const meshes = { 'with normals': wavyGrid(20), 'without normals': wavyGrid(9, false), 'past 16-bit indices': wavyGrid(260) };

  for (const [name, mesh] of Object.entries(meshes)) {
    it(`plain GLB (${name}): float32 attributes, integer indices, no extension; reads back exactly`, async () => {
      const glb = await encodeExport(mesh, 'glb', {});
      const json = glbJson(glb);
      expect(json.extensionsRequired).toBeUndefined();
      expect(json.extensionsUsed).toBeUndefined();
      expect(json.accessors.map((a) => a.componentType).slice(0, mesh.normals ? 2 : 1)).toEqual(mesh.normals ? [5126, 5126] : [5126]);
      expect([5123, 5125]).toContain(json.accessors.at(-1)!.componentType);
      const doc = await readGlb(glb);
      const primitive = doc.getRoot().listMeshes()[0]!.listPrimitives()[0]!;
      expect(Array.from(primitive.getAttribute('POSITION')!.getArray()!)).toEqual(Array.from(mesh.vertices));
      expect(Array.from(primitive.getIndices()!.getArray()!)).toEqual(Array.from(mesh.indices));
      if (mesh.normals) expect(Array.from(primitive.getAttribute('NORMAL')!.getArray()!)).toEqual(Array.from(mesh.normals));
    });

    it(`meshopt GLB (${name}): EXT_meshopt_compression and KHR_mesh_quantization required; same mesh within quantisation`, async () => {
      const glb = await encodeExport(mesh, 'glb', { compress: 'meshopt' });
      const json = glbJson(glb);
      expect([...json.extensionsRequired!].sort()).toEqual(['EXT_meshopt_compression', 'KHR_mesh_quantization']);
      if (mesh.vertices.length > 3 * 0xffff) expect(glb.byteLength).toBeLessThan((await encodeExport(mesh, 'glb', {})).byteLength / 3);
      const extent = 2; // the grids span [-1, 1] on their widest axis
      expectSameMesh(await readGlb(glb), mesh, { position: extent / ((1 << POSITION_BITS) - 1) / 2 + 1e-6, normal: 0.02 });
    });
  }
});

describe('an empty mesh', () => {
  it('is a GLB with an empty scene (glTF has no empty accessor; nothing to compress), and an empty STL and OBJ', async () => {
    const empty: MeshSample = { type: 'mesh', vertices: new Float32Array(0), indices: new Uint32Array(0) };
    for (const options of [{}, { compress: 'meshopt' }]) {
      const glb = await encodeExport(empty, 'glb', options);
      expect(glbJson(glb).extensionsRequired).toBeUndefined();
      const doc = await readGlb(glb);
      expect(doc.getRoot().listMeshes()).toEqual([]);
      expect(doc.getRoot().listScenes()).toHaveLength(1);
    }
    expect((await encodeExport(empty, 'stl', {})).byteLength).toBe(84);
    expect(new TextDecoder().decode(await encodeExport(empty, 'obj', {}))).toBe('# vitrine\n');
  });
});

/** Decoded non-indexed geometry corners → the set of triangles as original vertex ids. */
function trianglesOfGeometry(geometry: BufferGeometry, mesh: MeshSample): string[] {
  const byPosition = new Map<string, number>();
  for (let v = 0; v < mesh.vertices.length / 3; v++) byPosition.set(Array.from(mesh.vertices.subarray(v * 3, v * 3 + 3)).join(','), v);
  const positions = geometry.getAttribute('position');
  const ids: number[] = [];
  for (let i = 0; i < positions.count; i++) {
    const id = byPosition.get([positions.getX(i), positions.getY(i), positions.getZ(i)].map((x) => Math.fround(x)).join(','));
    expect(id, `corner ${i} is no original vertex`).toBeDefined();
    ids.push(id!);
  }
  return triangleSet(ids, (v) => v);
}

describe('STL and OBJ', () => {
  const mesh = wavyGrid(12);

  it('binary STL: three STLLoader reads the same triangles with facet normals', () => {
    const stl = encodeExport(mesh, 'stl', {});
    return stl.then((bytes) => {
      expect(bytes.byteLength).toBe(84 + (mesh.indices.length / 3) * 50);
      const geometry = new STLLoader().parse(arrayBufferOf(bytes));
      expect(trianglesOfGeometry(geometry, mesh)).toEqual(triangleSet(mesh.indices, (v) => v));
      const normals = geometry.getAttribute('normal');
      // The first triangle (a, a+n, a+n+1) of a grid cell: its facet normal points up (z > 0) on this gentle surface.
      expect(normals.getZ(0)).toBeGreaterThan(0);
      expect(Math.hypot(normals.getX(0), normals.getY(0), normals.getZ(0))).toBeCloseTo(1, 5);
    });
  });

  it('OBJ: three OBJLoader reads the same triangles and normals', async () => {
    const bytes = await encodeExport(mesh, 'obj', {});
    const group = new OBJLoader().parse(new TextDecoder().decode(bytes));
    const geometry = (group.children[0] as Mesh).geometry;
    expect(trianglesOfGeometry(geometry, mesh)).toEqual(triangleSet(mesh.indices, (v) => v));
    const normals = geometry.getAttribute('normal');
    const corner0 = mesh.indices[0]!;
    for (let c = 0; c < 3; c++) expect(normals.array[c]).toBeCloseTo(mesh.normals![corner0 * 3 + c]!, 6);
  });
});

describe('NPY', () => {
  for (const volume of [rampVolume(), byteVolume()]) {
    it(`${volume.dtype} volume: shape, dtype and samples read back`, async () => {
      const bytes = Buffer.from(await encodeExport(volume, 'npy', {}));
      const header = parseNpyHeader(bytes);
      expect(header).toMatchObject({ version: '1.0', fortranOrder: false, shape: volume.shape, descr: volume.dtype === 'float32' ? '<f4' : '<u2' });
      expect(header.dataOffset % 64).toBe(0);
      const data = bytes.subarray(header.dataOffset);
      const Ctor = volume.data.constructor as Float32ArrayConstructor;
      expect(Array.from(new Ctor(data.buffer.slice(data.byteOffset, data.byteOffset + data.byteLength)))).toEqual(Array.from(volume.data));
    });
  }
});

describe('PLY', () => {
  for (const [colors, scalars] of [['bytes', true], ['floats', false], ['none', false]] as const) {
    it(`point cloud (${colors} colours${scalars ? ', scalars' : ''}): three PLYLoader reads points, colours and scalars`, async () => {
      const result = cloud(colors, scalars);
      const bytes = await encodeExport(result, 'ply', {});
      const loader = new PLYLoader();
      if (scalars) loader.setCustomPropertyNameMapping({ scalar: ['scalar'] });
      // The loader would convert sRGB colours to linear; the bytes themselves are compared.
      ColorManagement.enabled = false;
      const geometry = loader.parse(arrayBufferOf(bytes));
      ColorManagement.enabled = true;
      expect(Array.from(geometry.getAttribute('position').array)).toEqual(Array.from(result.points));
      const color = geometry.getAttribute('color');
      if (colors === 'none') expect(color).toBeUndefined();
      else {
        const bytesOf = Array.from(result.colors!, (c) => (colors === 'floats' ? Math.round(c * 255) : c));
        // The loader keeps uchar colours as bytes (a normalised attribute).
        expect(Array.from(color.array, (c) => Math.round(c))).toEqual(bytesOf);
      }
      if (scalars) expect(Array.from(geometry.getAttribute('scalar').array)).toEqual(Array.from(result.scalars!));
      else expect(new TextDecoder().decode(bytes.subarray(0, 300))).not.toContain('scalar');
    });
  }
});

describe('PNG', () => {
  for (const [dtype, channels] of [['uint8', 1], ['uint8', 3], ['uint8', 4], ['uint16', 2], ['float32', 1]] as const) {
    it(`${dtype} image with ${channels} channel(s): pngjs reads the samples back`, async () => {
      const result = image(dtype, channels);
      const bytes = Buffer.from(await encodeExport(result, 'png', {}));
      const png = PNG.sync.read(bytes, { skipRescale: true });
      expect([png.width, png.height]).toEqual([result.width, result.height]);
      const max = dtype === 'uint8' ? 255 : 65535;
      const [lo, hi] = dtype === 'float32' ? [Math.min(...result.data), Math.max(...result.data)] : [0, max];
      const expected = (i: number) => Math.round(((result.data[i]! - lo) / (hi - lo)) * max);
      // pngjs hands back RGBA whatever the file's colour type.
      const rgba = png.data as unknown as ArrayLike<number>;
      for (let p = 0; p < result.width * result.height; p++) {
        const s = p * channels;
        const got = Array.from({ length: 4 }, (_, c) => rgba[p * 4 + c]!);
        const want =
          channels <= 2
            ? [expected(s), expected(s), expected(s), channels === 2 ? expected(s + 1) : max]
            : [expected(s), expected(s + 1), expected(s + 2), channels === 4 ? expected(s + 3) : max];
        expect(got).toEqual(want);
      }
    });
  }
});

describe('the format table', () => {
  it('names a media type and extension for each format, and refuses a result of another kind', async () => {
    expect(Object.fromEntries(FILE_ENCODERS.map((f) => [`${f.type}/${f.format}`, [f.mediaType(NAMES), f.extension]]))).toEqual({
      'mesh/glb': ['model/gltf-binary', 'glb'],
      'mesh/stl': ['model/stl', 'stl'],
      'mesh/obj': ['model/obj', 'obj'],
      'mesh/ply': ['application/octet-stream', 'ply'],
      'mesh/vtk': ['application/octet-stream', 'vtk'],
      'volume/npy': ['application/octet-stream', 'npy'],
      'point_cloud/ply': ['application/octet-stream', 'ply'],
      'image/png': ['image/png', 'png'],
    });
    await expect(formatEncoder('mesh', 'glb').encode(rampVolume(), { format: 'glb' }, NAMES)).rejects.toThrow(/mesh/);
  });
});
