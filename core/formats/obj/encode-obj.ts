/**
 * @module encode-obj
 * A mesh result as Wavefront OBJ text: `v` lines and one-based `f a b c` lines, with `s 1` when
 * the mesh has normals, so a reader shades it smooth from its own. Faces carry no `a//a` normal
 * references: Neuroglancer's OBJ reader takes only plain `f a b c` lines and would read no face
 * at all. Coordinates are written with float32 precision (9 significant digits round-trip a
 * float32 exactly).
 */
import type { MeshResult } from '../../sdk/result-types.ts';

/** Lines are gathered in pieces of about this many characters, so no single string grows huge. */
const PIECE = 1 << 20;

function number(x: number): string {
  return Number.isInteger(x) ? String(x) : String(Number(x.toPrecision(9)));
}

/** The OBJ bytes (UTF-8) of `mesh`. */
export function encodeObj(mesh: MeshResult): Uint8Array {
  const pieces: Buffer[] = [];
  let text = '# vitrine\n';
  const push = (line: string) => {
    text += line;
    if (text.length >= PIECE) {
      pieces.push(Buffer.from(text, 'utf8'));
      text = '';
    }
  };
  const { vertices: v, normals: n, indices } = mesh;
  for (let i = 0; i < v.length; i += 3) push(`v ${number(v[i]!)} ${number(v[i + 1]!)} ${number(v[i + 2]!)}\n`);
  if (n) push('s 1\n');
  for (let t = 0; t + 2 < indices.length; t += 3) push(`f ${indices[t]! + 1} ${indices[t + 1]! + 1} ${indices[t + 2]! + 1}\n`);
  pieces.push(Buffer.from(text, 'utf8'));
  const out = Buffer.concat(pieces);
  return new Uint8Array(out.buffer, out.byteOffset, out.byteLength);
}
