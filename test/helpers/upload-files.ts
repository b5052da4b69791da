/**
 * Small files of every upload format, written here so each test can also break them: a cube
 * as binary and ASCII STL, an OBJ, a PLY point cloud (ASCII) and mesh (binary), a PNG, a GLB.
 */
import { Document, NodeIO } from '@gltf-transform/core';
import { PNG } from 'pngjs';

/** The 12 triangles of the unit cube (8 shared corners). */
export const CUBE_TRIANGLES: number[][] = (() => {
  const c = (i: number) => [i & 1, (i >> 1) & 1, (i >> 2) & 1];
  const quads = [[0, 2, 3, 1], [4, 5, 7, 6], [0, 1, 5, 4], [2, 6, 7, 3], [0, 4, 6, 2], [1, 3, 7, 5]];
  return quads.flatMap(([a, b, d, e]) => [[...c(a!), ...c(b!), ...c(d!)], [...c(a!), ...c(d!), ...c(e!)]]);
})();

export function binaryStl(triangles = CUBE_TRIANGLES): Buffer {
  const out = Buffer.alloc(84 + 50 * triangles.length);
  out.write('binary cube', 0, 'latin1');
  out.writeUInt32LE(triangles.length, 80);
  triangles.forEach((t, i) => t.forEach((v, k) => out.writeFloatLE(v, 84 + i * 50 + 12 + k * 4)));
  return out;
}

export function asciiStl(triangles = CUBE_TRIANGLES): Buffer {
  const facets = triangles.map(
    (t) => `facet normal 0 0 0\n outer loop\n${[0, 1, 2].map((c) => `  vertex ${t[c * 3]} ${t[c * 3 + 1]} ${t[c * 3 + 2]}\n`).join('')} endloop\nendfacet\n`,
  );
  return Buffer.from(`solid cube\n${facets.join('')}endsolid cube\n`, 'latin1');
}

export const OBJ_SQUARE = Buffer.from('# a square\nv 0 0 0\nv 1 0 0\nv 1 1 0\nv 0 1 0\nvn 0 0 1\nf 1//1 2//1 3//1 4//1\n');

export function asciiPlyCloud(points: number): Buffer {
  const rows = Array.from({ length: points }, (_, i) => `${i} ${i * 2} ${i * 3} 255 ${i % 256} 0`);
  return Buffer.from(
    `ply\nformat ascii 1.0\nelement vertex ${points}\nproperty float x\nproperty float y\nproperty float z\nproperty uchar red\nproperty uchar ` +
    `green\nproperty uchar blue\nend_header\n${rows.join('\n')}\n`,
  );
}

/** A binary little-endian PLY with one triangle; `declared` vertices in the header (3 real). */
export function binaryPlyTriangle(declared = 3): Buffer {
  const header = Buffer.from(
    `ply\nformat binary_little_endian 1.0\nelement vertex ${declared}\nproperty float x\nproperty float y\nproperty float z\nelement face 1\nproperty ` +
    `list uchar int vertex_indices\nend_header\n`,
  );
  const body = Buffer.alloc(3 * 12 + 1 + 12);
  [0, 0, 0, 1, 0, 0, 0, 1, 0].forEach((v, i) => body.writeFloatLE(v, i * 4));
  body.writeUInt8(3, 36);
  [0, 1, 2].forEach((v, i) => body.writeInt32LE(v, 37 + i * 4));
  return Buffer.concat([header, body]);
}

export function png(width: number, height: number): Buffer {
  const image = new PNG({ width, height });
  for (let i = 0; i < width * height; i++) image.data.set([i % 256, 100, 200, 255], i * 4);
  return PNG.sync.write(image);
}

/** A GLB holding one triangle, moved by its node's translation. */
export async function glbTriangle(): Promise<Buffer> {
  const doc = new Document();
  const buffer = doc.createBuffer();
  const position = doc.createAccessor().setType('VEC3').setArray(new Float32Array([0, 0, 0, 1, 0, 0, 0, 1, 0])).setBuffer(buffer);
  const indices = doc.createAccessor().setType('SCALAR').setArray(new Uint32Array([0, 1, 2])).setBuffer(buffer);
  const mesh = doc.createMesh().addPrimitive(doc.createPrimitive().setAttribute('POSITION', position).setIndices(indices));
  const node = doc.createNode().setMesh(mesh).setTranslation([10, 0, 0]);
  doc.createScene().addChild(node);
  return Buffer.from(await new NodeIO().writeBinary(doc));
}
