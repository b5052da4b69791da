/**
 * @module cluster-mesh
 * Vertex clustering on a grid: a cheap simplification for large reductions (a preview of a
 * mesh many times over its budget). Every vertex falls into a cubic cell; a cell becomes one
 * vertex at the mean of its members; a triangle whose corners land in three different cells
 * survives, once, unless moving its corners turned it over. Each pass is linear in the mesh, and the cell size is found in a few passes
 * from how many cells a surface occupies (about twice as many triangles as cells), so a
 * 2-million-triangle mesh reaches 20,000 triangles in a fraction of what edge collapse takes.
 * A cell holding a vertex at the mesh's extent on some axis keeps that coordinate, so the
 * bounding box is the original's wherever those cells survive.
 */

/** The simplified mesh: positions, triangle indices and (when given) unit normals. */
export interface ClusteredMesh {
  vertices: Float32Array;
  indices: Uint32Array;
  normals?: Float32Array;
}

/** Cells along the longest axis, at most: cell keys fit 30 bits. */
const MAX_CELLS = 1024;

const EMPTY = -1;

/** The smallest power of two at least `n` (and at least 16). */
function tableSize(n: number): number {
  let size = 16;
  while (size < n) size *= 2;
  return size;
}

function mix(key: number): number {
  return Math.imul(key ^ (key >>> 15), 0x2c1b3c6d) >>> 0;
}

interface Grid {
  min: [number, number, number];
  cell: number;
  counts: [number, number, number];
}

/** The axis-aligned box of `vertices` (x, y, z triples). */
export function boundsOf(vertices: ArrayLike<number>): { min: [number, number, number]; max: [number, number, number] } {
  const min: [number, number, number] = [Infinity, Infinity, Infinity];
  const max: [number, number, number] = [-Infinity, -Infinity, -Infinity];
  for (let i = 0; i < vertices.length; i += 3) {
    for (let a = 0; a < 3; a++) {
      const v = vertices[i + a]!;
      if (v < min[a]!) min[a] = v;
      if (v > max[a]!) max[a] = v;
    }
  }
  return { min, max };
}

function gridOf(min: [number, number, number], max: [number, number, number], cellsOnLongest: number): Grid {
  const longest = Math.max(max[0] - min[0], max[1] - min[1], max[2] - min[2]);
  const cell = longest > 0 ? longest / cellsOnLongest : 1;
  const counts = [0, 1, 2].map((a) => Math.min(MAX_CELLS, Math.max(1, Math.ceil((max[a]! - min[a]!) / cell) || 1))) as [number, number, number];
  return { min, cell, counts };
}

/** The cell key of vertex `v` (x fastest). */
function cellKey(vertices: Float32Array, v: number, grid: Grid): number {
  const [nx, ny, nz] = grid.counts;
  const x = Math.min(nx - 1, Math.floor((vertices[v * 3]! - grid.min[0]) / grid.cell));
  const y = Math.min(ny - 1, Math.floor((vertices[v * 3 + 1]! - grid.min[1]) / grid.cell));
  const z = Math.min(nz - 1, Math.floor((vertices[v * 3 + 2]! - grid.min[2]) / grid.cell));
  return x + nx * (y + ny * z);
}

/** The cell key of every `stride`-th vertex (of each vertex, by default). */
function cellKeys(vertices: Float32Array, grid: Grid, stride = 1): Int32Array {
  const keys = new Int32Array(Math.ceil(vertices.length / 3 / stride));
  for (let k = 0; k < keys.length; k++) keys[k] = cellKey(vertices, k * stride, grid);
  return keys;
}

/** Numbers the occupied cells 0..count-1 in first-seen order; returns each vertex's cluster. */
function clustersOf(keys: Int32Array): { cluster: Int32Array; count: number } {
  const size = tableSize(2 * keys.length);
  const slotKey = new Int32Array(size).fill(EMPTY);
  const slotId = new Int32Array(size);
  const cluster = new Int32Array(keys.length);
  let count = 0;
  for (let v = 0; v < keys.length; v++) {
    const key = keys[v]!;
    let slot = mix(key) & (size - 1);
    while (slotKey[slot] !== EMPTY && slotKey[slot] !== key) slot = (slot + 1) & (size - 1);
    if (slotKey[slot] === EMPTY) {
      slotKey[slot] = key;
      slotId[slot] = count++;
    }
    cluster[v] = slotId[slot]!;
  }
  return { cluster, count };
}

/** Triangles over clusters, and for each the input triangle it came from. */
interface ClusterTriangles {
  corners: Uint32Array;
  sources: Uint32Array;
}

/**
 * The distinct non-degenerate triangles over clusters, each rotated to start at its smallest
 * cluster (winding kept); null as soon as there are more than `limit`.
 */
function clusterTriangles(indices: Uint32Array, cluster: Int32Array, limit: number): ClusterTriangles | null {
  const size = tableSize(4 * limit + 4);
  const slots = new Int32Array(size).fill(EMPTY);
  const out = new Uint32Array(limit * 3);
  const sources = new Uint32Array(limit);
  let kept = 0;
  for (let t = 0; t < indices.length; t += 3) {
    let a = cluster[indices[t]!]!;
    let b = cluster[indices[t + 1]!]!;
    let c = cluster[indices[t + 2]!]!;
    if (a === b || b === c || a === c) continue;
    if (b < a && b < c) [a, b, c] = [b, c, a];
    else if (c < a && c < b) [a, b, c] = [c, a, b];
    let slot = mix(a ^ mix(b ^ mix(c))) & (size - 1);
    let found = false;
    for (let at = slots[slot]!; at !== EMPTY; slot = (slot + 1) & (size - 1), at = slots[slot]!) {
      if (out[at * 3] === a && out[at * 3 + 1] === b && out[at * 3 + 2] === c) {
        found = true;
        break;
      }
    }
    if (found) continue;
    if (kept === limit) return null;
    slots[slot] = kept;
    out.set([a, b, c], kept * 3);
    sources[kept] = t / 3;
    kept++;
  }
  return { corners: out.subarray(0, kept * 3), sources: sources.subarray(0, kept) };
}

/** The (unnormalised) normal of triangle a, b, c of `p`. */
function normalOf(p: ArrayLike<number>, a: number, b: number, c: number): [number, number, number] {
  const ux = p[b * 3]! - p[a * 3]!, uy = p[b * 3 + 1]! - p[a * 3 + 1]!, uz = p[b * 3 + 2]! - p[a * 3 + 2]!;
  const vx = p[c * 3]! - p[a * 3]!, vy = p[c * 3 + 1]! - p[a * 3 + 1]!, vz = p[c * 3 + 2]! - p[a * 3 + 2]!;
  return [uy * vz - uz * vy, uz * vx - ux * vz, ux * vy - uy * vx];
}

/**
 * The triangles that still face the way their input triangle did once their corners moved to
 * the cluster means (a fold-over, or one flattened to nothing, would draw as a dark fleck).
 */
function keepFacing(mesh: ClusteredMesh, means: Float64Array, triangles: ClusterTriangles): Uint32Array {
  const { corners, sources } = triangles;
  const kept = new Uint32Array(corners.length);
  let count = 0;
  for (let t = 0; t < sources.length; t++) {
    const s = sources[t]! * 3;
    const original = normalOf(mesh.vertices, mesh.indices[s]!, mesh.indices[s + 1]!, mesh.indices[s + 2]!);
    const moved = normalOf(means, corners[t * 3]!, corners[t * 3 + 1]!, corners[t * 3 + 2]!);
    if (moved[0] * original[0] + moved[1] * original[1] + moved[2] * original[2] <= 0) continue;
    kept.set(corners.subarray(t * 3, t * 3 + 3), count * 3);
    count++;
  }
  return kept.subarray(0, count * 3);
}

/** For each axis, the vertex with the smallest and the largest coordinate. */
export function extremes(vertices: Float32Array): number[][] {
  const count = vertices.length / 3;
  return [0, 1, 2].map((axis) => {
    let lo = 0;
    let hi = 0;
    for (let v = 1; v < count; v++) {
      if (vertices[v * 3 + axis]! < vertices[lo * 3 + axis]!) lo = v;
      if (vertices[v * 3 + axis]! > vertices[hi * 3 + axis]!) hi = v;
    }
    return [lo, hi];
  });
}

/** The mesh of the kept triangles: one vertex per used cluster, in first-use order. */
function assemble(mesh: ClusteredMesh, cluster: Int32Array, clusters: number, candidates: ClusterTriangles): ClusteredMesh {
  const sums = new Float64Array(clusters * 3);
  const members = new Uint32Array(clusters);
  // Normals as long as the positions follow their vertices; any others are none.
  const normalSums = mesh.normals?.length === mesh.vertices.length ? new Float64Array(clusters * 3) : null;
  for (let v = 0; v < cluster.length; v++) {
    const k = cluster[v]!;
    members[k]!++;
    for (let a = 0; a < 3; a++) {
      sums[k * 3 + a]! += mesh.vertices[v * 3 + a]!;
      if (normalSums) normalSums[k * 3 + a]! += mesh.normals![v * 3 + a]!;
    }
  }
  for (let k = 0; k < clusters; k++) for (let a = 0; a < 3; a++) sums[k * 3 + a]! /= members[k]!;
  // The cells at the extents keep the extreme coordinate on that axis.
  extremes(mesh.vertices).forEach((pair, axis) => {
    for (const v of pair) sums[cluster[v]! * 3 + axis] = mesh.vertices[v * 3 + axis]!;
  });
  const triangles = keepFacing(mesh, sums, candidates);
  const renumber = new Int32Array(clusters).fill(EMPTY);
  let used = 0;
  const indices = new Uint32Array(triangles.length);
  for (let i = 0; i < triangles.length; i++) {
    const k = triangles[i]!;
    if (renumber[k] === EMPTY) renumber[k] = used++;
    indices[i] = renumber[k]!;
  }
  const vertices = new Float32Array(used * 3);
  const normals = normalSums ? new Float32Array(used * 3) : undefined;
  for (let k = 0; k < clusters; k++) {
    const to = renumber[k]!;
    if (to === EMPTY) continue;
    for (let a = 0; a < 3; a++) vertices[to * 3 + a] = sums[k * 3 + a]!;
    if (normals && normalSums) {
      const [x, y, z] = [normalSums[k * 3]!, normalSums[k * 3 + 1]!, normalSums[k * 3 + 2]!];
      const length = Math.hypot(x, y, z) || 1;
      normals.set([x / length, y / length, z / length], to * 3);
    }
  }
  return normals ? { vertices, indices, normals } : { vertices, indices };
}

/**
 * The mesh clustered to at most `maxTriangles` triangles (as close under it as a few passes
 * find). A surface occupies cells in proportion to the square of the grid's resolution, so
 * each pass rescales the grid by the square root of the ratio of the budget to what it got.
 */
export function clusterMesh(mesh: ClusteredMesh, maxTriangles: number): ClusteredMesh {
  const { min, max } = boundsOf(mesh.vertices);
  // A closed surface has about twice as many triangles as vertices: aim a little under that.
  // The grid is sized on a sample of the vertices (about 16 per triangle of the budget, enough
  // to find nearly every occupied cell), then clustered once on all of them.
  const vertexCount = mesh.vertices.length / 3;
  const stride = Math.max(1, Math.floor(vertexCount / (16 * maxTriangles)));
  let cells = Math.max(1, Math.min(MAX_CELLS, Math.sqrt(maxTriangles)));
  for (let pass = 0; pass < 3; pass++) {
    // How many cells every `stride`-th vertex occupies: an estimate that reads a fraction of the mesh.
    const occupied = clustersOf(cellKeys(mesh.vertices, gridOf(min, max, cells), stride)).count;
    if (occupied === 0) break;
    const next = Math.max(1, Math.min(MAX_CELLS, cells * Math.sqrt((0.45 * maxTriangles) / occupied)));
    if (Math.abs(next - cells) < 0.02 * cells) break;
    cells = next;
  }
  const fit = (grid: Grid) => clustersOf(cellKeys(mesh.vertices, grid));
  let { cluster, count } = fit(gridOf(min, max, cells));
  // Over the budget: a coarser grid. This ends, since a grid of one cell leaves no triangle.
  for (;;) {
    const triangles = clusterTriangles(mesh.indices, cluster, maxTriangles);
    if (triangles) return assemble(mesh, cluster, count, triangles);
    cells = cells <= 1 ? 0.5 : cells * 0.8;
    ({ cluster, count } = fit(gridOf(min, max, cells)));
  }
}
