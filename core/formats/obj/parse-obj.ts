/**
 * @module parse-obj
 * Wavefront OBJ meshes: `v x y z` positions and `f` faces (`a`, `a/b`, `a//c`, `a/b/c`;
 * negative indices count from the end), polygons split into triangle fans. Texture
 * coordinates, normals, groups and materials are ignored; a face pointing at a vertex that
 * does not exist, or a position that is not a finite number, is refused.
 */
import type { TaggedResult } from '../../sdk/result-types.ts';
import { fail } from '../format-error.ts';
import { toSharedFloat32, toSharedUint32 } from '../shared-arrays.ts';

export function parseObj(bytes: Buffer): TaggedResult {
  const text = bytes.toString('utf8');
  const positions: number[] = [];
  const indices: number[] = [];
  const lines = text.split('\n');
  for (let n = 0; n < lines.length; n++) {
    const line = lines[n]!.trim();
    if (line.startsWith('v ') || line.startsWith('v\t')) {
      const parts = line.split(/\s+/);
      if (parts.length < 4) fail(`line ${n + 1}: a vertex needs x, y and z`);
      for (let k = 1; k <= 3; k++) {
        const value = Number(parts[k]);
        if (!Number.isFinite(value)) fail(`line ${n + 1}: '${parts[k]}' is not a finite number`);
        positions.push(value);
      }
    } else if (line.startsWith('f ') || line.startsWith('f\t')) {
      const count = positions.length / 3;
      const corners = line.split(/\s+/).slice(1).map((token) => {
        const raw = Number.parseInt(token.split('/')[0] ?? '', 10);
        const index = raw < 0 ? count + raw : raw - 1;
        if (!Number.isInteger(raw) || raw === 0 || index < 0 || index >= count) fail(`line ${n + 1}: face corner '${token}' names no vertex (${count} so far)`);
        return index;
      });
      if (corners.length < 3) fail(`line ${n + 1}: a face needs at least 3 corners`);
      for (let k = 1; k + 1 < corners.length; k++) indices.push(corners[0]!, corners[k]!, corners[k + 1]!);
    }
  }
  if (indices.length === 0) fail('the OBJ file has no faces');
  return { type: 'mesh', vertices: toSharedFloat32(positions), indices: toSharedUint32(indices) };
}
