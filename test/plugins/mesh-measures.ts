/**
 * @module mesh-measures
 * Geometry of a triangle mesh for tests: surface area, enclosed (signed) volume, and whether
 * it is closed and consistently oriented (every directed edge appears once, and its reverse
 * once, so each edge is shared by exactly two triangles).
 */
import type { MeshResult } from 'vitrine';

/** Total triangle area. */
export function surfaceArea({ vertices: v, indices }: Pick<MeshResult, 'vertices' | 'indices'>): number {
  let area = 0;
  forEachCross(v, indices, (cx, cy, cz) => { area += Math.hypot(cx, cy, cz) / 2; });
  return area;
}

/** Signed enclosed volume (divergence theorem): positive when faces point outwards. */
export function signedVolume({ vertices: v, indices }: Pick<MeshResult, 'vertices' | 'indices'>): number {
  let volume = 0;
  forEachCross(v, indices, (cx, cy, cz, a) => { volume += (v[a]! * cx + v[a + 1]! * cy + v[a + 2]! * cz) / 6; });
  return volume;
}

/** Directed edges that break a closed, oriented 2-manifold (empty when watertight). */
export function openOrInconsistentEdges({ indices }: Pick<MeshResult, 'indices'>): string[] {
  const directed = new Map<string, number>();
  for (let t = 0; t < indices.length; t += 3) {
    for (let k = 0; k < 3; k++) {
      const key = `${indices[t + k]},${indices[t + ((k + 1) % 3)]}`;
      directed.set(key, (directed.get(key) ?? 0) + 1);
    }
  }
  const bad: string[] = [];
  for (const [key, count] of directed) {
    const [a, b] = key.split(',');
    if (count !== 1 || directed.get(`${b},${a}`) !== 1) bad.push(key);
  }
  return bad;
}

function forEachCross(
  v: Float32Array,
  indices: Uint32Array,
  visit: (cx: number, cy: number, cz: number, a: number) => void,
): void {
  for (let t = 0; t < indices.length; t += 3) {
    const a = indices[t]! * 3, b = indices[t + 1]! * 3, c = indices[t + 2]! * 3;
    const e1x = v[b]! - v[a]!, e1y = v[b + 1]! - v[a + 1]!, e1z = v[b + 2]! - v[a + 2]!;
    const e2x = v[c]! - v[a]!, e2y = v[c + 1]! - v[a + 1]!, e2z = v[c + 2]! - v[a + 2]!;
    visit(e1y * e2z - e1z * e2y, e1z * e2x - e1x * e2z, e1x * e2y - e1y * e2x, a);
  }
}
