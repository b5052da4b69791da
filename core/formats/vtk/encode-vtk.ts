/**
 * @module encode-vtk
 * A mesh result as a legacy VTK file, ASCII `POLYDATA`: a `POINTS n float` section, one
 * `x y z` line per vertex, and a `POLYGONS t 4t` section, one `3 a b c` line per triangle
 * (zero-based). Nothing else: no normals or colours, which a reader shades from the faces.
 * This is the form Neuroglancer's single-mesh VTK reader takes (ASCII, triangles only). Numbers
 * and the `maxBytes` bound as text-pieces.ts writes them.
 */
import type { MeshResult } from '../../sdk/result-types.ts';
import { TextPieces, textNumber as number } from '../text-pieces.ts';

/**
 * The VTK bytes (ASCII) of `mesh`.
 * @throws OutputTooLarge once the text passes `maxBytes`.
 */
export function encodeVtk(mesh: MeshResult, { maxBytes = Infinity }: { maxBytes?: number } = {}): Uint8Array {
  const { vertices: v, indices } = mesh;
  const vertices = Math.floor(v.length / 3);
  const triangles = Math.floor(indices.length / 3);
  const text = new TextPieces(maxBytes);
  text.push(`# vtk DataFile Version 3.0\nvitrine\nASCII\nDATASET POLYDATA\nPOINTS ${vertices} float\n`);
  for (let i = 0; i < vertices * 3; i += 3) text.push(`${number(v[i]!)} ${number(v[i + 1]!)} ${number(v[i + 2]!)}\n`);
  text.push(`POLYGONS ${triangles} ${4 * triangles}\n`);
  for (let t = 0; t < triangles * 3; t += 3) text.push(`3 ${indices[t]!} ${indices[t + 1]!} ${indices[t + 2]!}\n`);
  return text.bytes();
}
