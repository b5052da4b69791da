/**
 * @module level-fragments
 * One level of a surface as the octree's fragments: the level's mesh is moved into grid units
 * (a cell is CELL_STEPS units a side), cut at every cell face and, above level 0, at every
 * cell's middle planes (its 2 × 2 × 2 children, where Neuroglancer splits a fragment to draw
 * part of it beside finer ones), then each triangle goes to the cell that holds it. Positions
 * are quantised to whole units relative to their cell, as the multi-resolution format stores
 * them; a triangle rounding flat is dropped. Fragments come in Z-curve order of their cells
 * (x the fastest bit), the order the manifest lists them in.
 */
import { CELL_STEPS, type LodPlan } from './lod-plan.ts';
import { cutAlong, type CutMesh } from './grid-cut.ts';
import { Growable } from './growable.ts';

type Numbers = ArrayLike<number>;

/** Where a fragment's children split it: local coordinate 512 of 0..1023 (Neuroglancer's partition point). */
export const MIDDLE = Math.floor(CELL_STEPS / 2) + 1;

export interface Fragment {
  /** The cell's grid position at its level (x, y, z). */
  cell: [number, number, number];
  /** Quantised positions in the cell, 0..CELL_STEPS, 3 per vertex (x, y, z). */
  positions: Uint16Array;
  /** Unit normals as signed bytes (127 = 1), 3 per vertex; null when the level had none. */
  normals: Int8Array | null;
  indices: Uint32Array;
}

/** `v` (under 1024) with two zero bits after each of its bits. */
function spread(v: number): number {
  v = (v | (v << 16)) & 0x030000ff;
  v = (v | (v << 8)) & 0x0300f00f;
  v = (v | (v << 4)) & 0x030c30c3;
  return (v | (v << 2)) & 0x09249249;
}

/** The Z-curve code of cell (x, y, z) (each under 1024): bits interleaved x, y, z from the lowest. */
export function mortonCode(x: number, y: number, z: number): number {
  return (spread(x) | (spread(y) << 1) | (spread(z) << 2)) >>> 0;
}

/** The next plane above `value`: cell faces, and with `middles` the middle planes too. */
export function planes(middles: boolean): (value: number) => number {
  return (value) => {
    const k = Math.floor(value / CELL_STEPS);
    const middle = CELL_STEPS * k + MIDDLE;
    return middles && middle > value ? middle : CELL_STEPS * (k + 1);
  };
}

/** The mesh in grid units of `level`, ready to cut. */
export function inGridUnits(positions: Numbers, normals: Numbers | null, indices: Numbers, plan: LodPlan, level: number): CutMesh {
  const unit = CELL_STEPS / (plan.chunk * 2 ** level);
  const coords = new Growable(new Float64Array(Math.ceil(positions.length * 1.2) + 3), positions.length);
  for (let i = 0; i < positions.length; i++) coords.array[i] = (positions[i]! - plan.origin[i % 3]!) * unit;
  const normalsOut = normals ? new Growable(new Float32Array(coords.array.length), normals.length) : null;
  if (normals) normalsOut!.array.set(normals);
  return { coords, normals: normalsOut, triangles: new Growable(Uint32Array.from(indices), indices.length) };
}

/** The fragments of one level's mesh (`positions` in the surface's coordinates, as the plan). */
export function levelFragments(positions: Numbers, normals: Numbers | null, indices: Numbers, plan: LodPlan, level: number): Fragment[] {
  const mesh = inGridUnits(positions, normals, indices, plan, level);
  const next = planes(level > 0);
  for (let axis = 0; axis < 3; axis++) mesh.triangles = cutAlong(mesh, axis, next);
  const vertexCount = mesh.coords.length / 3;
  const rounded = new Int32Array(vertexCount * 3);
  for (let i = 0; i < rounded.length; i++) rounded[i] = Math.round(mesh.coords.array[i]!);
  const cells = 2 ** (plan.levels - 1 - level);
  const triangles = mesh.triangles.view();
  // Each triangle's cell as a dense slot (in first-met order; -1: dropped), and each slot's code.
  const slots = new Int32Array(triangles.length / 3);
  const codes: number[] = [];
  const slotOf = new Map<number, number>();
  let lastCode = -1;
  let lastSlot = -1;
  for (let t = 0; t < slots.length; t++) {
    const code = cellCode(rounded, triangles, t, cells);
    if (code !== lastCode) {
      lastCode = code;
      lastSlot = code < 0 ? -1 : (slotOf.get(code) ?? slotOf.set(code, codes.push(code) - 1).get(code)!);
    }
    slots[t] = lastSlot;
  }
  return gather(rounded, mesh.normals?.view() ?? null, triangles, slots, codes);
}

/** The Z-curve code of the cell holding triangle `t`; -1 when it rounds flat (two corners on one point). */
function cellCode(rounded: Int32Array, triangles: Uint32Array, t: number, cells: number): number {
  const a = triangles[t * 3]! * 3, b = triangles[t * 3 + 1]! * 3, c = triangles[t * 3 + 2]! * 3;
  if (samePoint(rounded, a, b) || samePoint(rounded, b, c) || samePoint(rounded, a, c)) return -1;
  let x = 0, y = 0, z = 0;
  for (let k = 0; k < 3; k++) {
    const ra = rounded[a + k]!, rb = rounded[b + k]!, rc = rounded[c + k]!;
    const lo = Math.min(ra, rb, rc), hi = Math.max(ra, rb, rc);
    const at = Math.max(0, Math.min(cells - 1, Math.floor((lo + hi) / 2 / CELL_STEPS)));
    if (k === 0) x = at;
    else if (k === 1) y = at;
    else z = at;
  }
  return mortonCode(x, y, z);
}

function samePoint(rounded: Int32Array, u: number, v: number): boolean {
  return rounded[u] === rounded[v] && rounded[u + 1] === rounded[v + 1] && rounded[u + 2] === rounded[v + 2];
}

/** The cell (x, y, z) of a Z-curve code. */
function cellOf(code: number): [number, number, number] {
  const cell: [number, number, number] = [0, 0, 0];
  for (let bit = 0; bit < 10; bit++) for (let k = 0; k < 3; k++) cell[k]! |= ((code >>> (3 * bit + k)) & 1) << bit;
  return cell;
}

/** The triangles of each cell as a fragment with its own vertices, cells in Z-curve order. */
function gather(rounded: Int32Array, normals: Float32Array | null, triangles: Uint32Array, slots: Int32Array, codes: number[]): Fragment[] {
  const counts = new Uint32Array(codes.length);
  for (let t = 0; t < slots.length; t++) if (slots[t]! >= 0) counts[slots[t]!]!++;
  const order = codes.map((_, slot) => slot).sort((x, y) => codes[x]! - codes[y]!);
  const start = new Uint32Array(codes.length);
  let offset = 0;
  for (const slot of order) {
    start[slot] = offset;
    offset += counts[slot]!;
  }
  const sorted = new Uint32Array(offset);
  for (let t = 0; t < slots.length; t++) if (slots[t]! >= 0) sorted[start[slots[t]!]!++] = t;
  const stamp = new Int32Array(rounded.length / 3).fill(-1);
  const local = new Uint32Array(rounded.length / 3);
  const fragments: Fragment[] = [];
  let from = 0;
  order.forEach((slot, k) => {
    const count = counts[slot]!;
    fragments.push(fragmentOf(codes[slot]!, k, sorted.subarray(from, from + count), rounded, normals, triangles, stamp, local));
    from += count;
  });
  return fragments;
}

function fragmentOf(
  code: number,
  serial: number,
  members: Uint32Array,
  rounded: Int32Array,
  normals: Float32Array | null,
  triangles: Uint32Array,
  stamp: Int32Array,
  local: Uint32Array,
): Fragment {
  const cell = cellOf(code);
  const indices = new Uint32Array(members.length * 3);
  const used = new Uint32Array(members.length * 3);
  let count = 0;
  for (let i = 0; i < members.length; i++) {
    for (let j = 0; j < 3; j++) {
      const v = triangles[members[i]! * 3 + j]!;
      if (stamp[v] !== serial) {
        stamp[v] = serial;
        local[v] = count;
        used[count++] = v;
      }
      indices[i * 3 + j] = local[v]!;
    }
  }
  const positions = new Uint16Array(count * 3);
  const packedNormals = normals ? new Int8Array(count * 3) : null;
  for (let i = 0; i < count; i++) {
    const v = used[i]!;
    for (let k = 0; k < 3; k++) positions[i * 3 + k] = Math.max(0, Math.min(CELL_STEPS, rounded[v * 3 + k]! - CELL_STEPS * cell[k]!));
    if (!packedNormals) continue;
    // Interpolated along a cut edge, a normal is shorter than 1: unit length again.
    const nx = normals![v * 3]!, ny = normals![v * 3 + 1]!, nz = normals![v * 3 + 2]!;
    const scale = 127 / (Math.sqrt(nx * nx + ny * ny + nz * nz) || 1);
    for (let k = 0; k < 3; k++) packedNormals[i * 3 + k] = Math.round(normals![v * 3 + k]! * scale);
  }
  return { cell, positions, normals: packedNormals, indices };
}
