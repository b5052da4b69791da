/**
 * @module grid-cut
 * Triangles cut at the planes of a grid along one axis, so that no triangle crosses one: a
 * triangle straddling a plane is split there into a part on each side (a triangle and a
 * quadrilateral, the latter as two triangles), and the part above is cut again at the next
 * plane. The point where an edge meets a plane is made once and shared by both triangles on
 * that edge, so the cut surface stays closed; attributes (normals) are interpolated along
 * the edge. Coordinates are a level's grid units (grid-levels.ts), in which every plane is
 * an integer, so that rounding a vertex never carries it across one.
 */
import { Growable } from './growable.ts';

/** A mesh being cut: grid coordinates and normals (3 per vertex, normals optional), triangles. */
export interface CutMesh {
  coords: Growable<Float64Array>;
  normals: Growable<Float32Array> | null;
  triangles: Growable<Uint32Array>;
}

/** The smallest plane strictly above `value` along an axis. */
export type NextPlane = (value: number) => number;

/** Cuts every triangle of `mesh` at the planes `next` gives along `axis`; returns the new triangles. */
export function cutAlong(mesh: CutMesh, axis: number, next: NextPlane): Growable<Uint32Array> {
  const input = mesh.triangles.view();
  const out = new Growable(new Uint32Array(Math.ceil(input.length * 1.1) + 12));
  // The vertex where edge (lo, hi) meets the plane that cuts it: within one axis an edge is
  // cut first at the lowest plane it crosses, whichever of its two triangles cuts it.
  const made = new Map<number, number>();
  const stack: number[] = [];
  for (let t = 0; t < input.length; t += 3) {
    const a = input[t]!, b = input[t + 1]!, c = input[t + 2]!;
    // Most triangles cross no plane: kept as they are, without going through the stack.
    const coords = mesh.coords.array;
    const ga = coords[a * 3 + axis]!, gb = coords[b * 3 + axis]!, gc = coords[c * 3 + axis]!;
    const low = ga < gb ? (ga < gc ? ga : gc) : gb < gc ? gb : gc;
    const high = ga > gb ? (ga > gc ? ga : gc) : gb > gc ? gb : gc;
    if (!(next(low) < high)) {
      out.push3(a, b, c);
      continue;
    }
    stack.push(a, b, c);
    while (stack.length > 0) {
      const c = stack.pop()!, b = stack.pop()!, a = stack.pop()!;
      const coords = mesh.coords.array;
      const ga = coords[a * 3 + axis]!, gb = coords[b * 3 + axis]!, gc = coords[c * 3 + axis]!;
      const low = Math.min(ga, gb, gc);
      const plane = next(low);
      if (!(plane < Math.max(ga, gb, gc))) {
        out.push3(a, b, c);
        continue;
      }
      splitTriangle(mesh, made, axis, plane, [a, b, c], out, stack);
    }
  }
  return out;
}

/** Splits triangle `abc` at `plane`: the part below goes to `out`, the part above back on `stack`. */
function splitTriangle(
  mesh: CutMesh,
  made: Map<number, number>,
  axis: number,
  plane: number,
  abc: number[],
  out: Growable<Uint32Array>,
  stack: number[],
): void {
  const below: number[] = [];
  const above: number[] = [];
  for (let i = 0; i < 3; i++) {
    const u = abc[i]!, v = abc[(i + 1) % 3]!;
    const gu = mesh.coords.array[u * 3 + axis]!, gv = mesh.coords.array[v * 3 + axis]!;
    if (gu <= plane) below.push(u);
    if (gu >= plane) above.push(u);
    if ((gu < plane && gv > plane) || (gu > plane && gv < plane)) {
      const w = crossing(mesh, made, u, v, axis, plane);
      below.push(w);
      above.push(w);
    }
  }
  // Each part is convex (a triangle cut by a half-space): a fan from its first vertex.
  for (let i = 1; i + 1 < below.length; i++) out.push3(below[0]!, below[i]!, below[i + 1]!);
  for (let i = 1; i + 1 < above.length; i++) stack.push(above[0]!, above[i]!, above[i + 1]!);
}

/** The vertex where edge `uv` meets `plane` (made once per edge). */
function crossing(mesh: CutMesh, made: Map<number, number>, u: number, v: number, axis: number, plane: number): number {
  const lo = Math.min(u, v), hi = Math.max(u, v);
  // Vertex numbers stay below 2^26 (a mesh of 67 million vertices): the key fits a double exactly.
  const key = lo * 67108864 + hi;
  const known = made.get(key);
  if (known !== undefined) return known;
  const coords = mesh.coords.reserve(3);
  const t = (plane - coords[lo * 3 + axis]!) / (coords[hi * 3 + axis]! - coords[lo * 3 + axis]!);
  const w = mesh.coords.length / 3;
  for (let k = 0; k < 3; k++) coords[w * 3 + k] = k === axis ? plane : coords[lo * 3 + k]! + t * (coords[hi * 3 + k]! - coords[lo * 3 + k]!);
  mesh.coords.length += 3;
  if (mesh.normals) {
    const normals = mesh.normals.reserve(3);
    for (let k = 0; k < 3; k++) normals[w * 3 + k] = normals[lo * 3 + k]! + t * (normals[hi * 3 + k]! - normals[lo * 3 + k]!);
    mesh.normals.length += 3;
  }
  made.set(key, w);
  return w;
}
