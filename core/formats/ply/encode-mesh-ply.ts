/**
 * @module encode-mesh-ply
 * A mesh result as binary little-endian PLY: a `vertex` element with float x, y, z, float nx,
 * ny, nz when the mesh has normals and uchar red, green, blue when it has colours (a
 * segmentation's `segment=all` paints each label), then a `face` element of triangles
 * (`list uchar int vertex_indices`). MeshLab, CloudCompare, Blender and three's PLYLoader read
 * it, colours included, which STL and OBJ cannot carry.
 */
import type { MeshResult } from '../../sdk/result-types.ts';
import { colorByte, PLY_RGB, plyHeader } from './encode-ply.ts';

/** The PLY bytes of `mesh`. */
export function encodeMeshPly(mesh: MeshResult): Uint8Array {
  const count = Math.floor(mesh.vertices.length / 3);
  const faces = Math.floor(mesh.indices.length / 3);
  const normals = mesh.normals && mesh.normals.length === mesh.vertices.length ? mesh.normals : undefined;
  const colors = mesh.colors && mesh.colors.length === mesh.vertices.length ? mesh.colors : undefined;
  const more = [...(normals ? ['property float nx', 'property float ny', 'property float nz'] : []), ...(colors ? PLY_RGB : [])];
  const header = new TextEncoder().encode(plyHeader(count, more, [`element face ${faces}`, 'property list uchar int vertex_indices']));
  const stride = 12 + (normals ? 12 : 0) + (colors ? 3 : 0);
  const out = new Uint8Array(header.length + count * stride + faces * 13);
  out.set(header);
  const view = new DataView(out.buffer);
  let at = header.length;
  for (let i = 0; i < count * 3; i += 3) {
    for (let k = 0; k < 3; k++, at += 4) view.setFloat32(at, mesh.vertices[i + k]!, true);
    if (normals) for (let k = 0; k < 3; k++, at += 4) view.setFloat32(at, normals[i + k]!, true);
    if (colors) for (let k = 0; k < 3; k++) out[at++] = colorByte(colors, i + k);
  }
  for (let t = 0; t < faces * 3; t += 3) {
    out[at++] = 3;
    for (let k = 0; k < 3; k++, at += 4) view.setInt32(at, mesh.indices[t + k]!, true);
  }
  return out;
}
