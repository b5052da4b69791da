/**
 * @module encode-obj
 * A mesh result as Wavefront OBJ text: `v` lines, `vn` lines when the mesh has normals, and
 * one-based `f` lines (`a//a` with normals). Without its normals (`normals: false`) faces are
 * plain `f a b c` lines, with `s 1` when the mesh had normals so a reader shades it smooth from
 * its own: Neuroglancer's OBJ reader takes no other face line and would read no face at all.
 * Numbers and the `maxBytes` bound as text-pieces.ts writes them.
 */
import type { MeshResult } from '../../sdk/result-types.ts';
import { TextPieces, textNumber as number } from '../text-pieces.ts';

/**
 * The OBJ bytes (UTF-8) of `mesh`, its normals left out with `normals: false`.
 * @throws OutputTooLarge once the text passes `maxBytes`.
 */
export function encodeObj(mesh: MeshResult, { normals = true, maxBytes = Infinity }: { normals?: boolean; maxBytes?: number } = {}): Uint8Array {
  const text = new TextPieces(maxBytes);
  text.push('# vitrine\n');
  const push = (line: string) => text.push(line);
  const { vertices: v, normals: n, indices } = mesh;
  for (let i = 0; i < v.length; i += 3) push(`v ${number(v[i]!)} ${number(v[i + 1]!)} ${number(v[i + 2]!)}\n`);
  const withNormals = n !== undefined && normals;
  if (withNormals) for (let i = 0; i < n.length; i += 3) push(`vn ${number(n[i]!)} ${number(n[i + 1]!)} ${number(n[i + 2]!)}\n`);
  else if (n) push('s 1\n');
  const corner = (k: number) => {
    const one = indices[k]! + 1;
    return withNormals ? `${one}//${one}` : String(one);
  };
  for (let t = 0; t + 2 < indices.length; t += 3) push(`f ${corner(t)} ${corner(t + 1)} ${corner(t + 2)}\n`);
  return text.bytes();
}
