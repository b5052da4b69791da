/**
 * @module smooth
 * Taubin smoothing: alternating a shrinking Laplacian step (λ) and an inflating one (μ),
 * so the surface loses its noise without shrinking the way plain Laplacian smoothing does.
 * Neighbours come from the triangles' edges (a vertex shared by triangles is one vertex).
 */
export function neighbourLists(vertexCount: number, indices: Uint32Array): { offsets: Uint32Array; neighbours: Uint32Array } {
  const counts = new Uint32Array(vertexCount + 1);
  for (let t = 0; t < indices.length; t += 3) {
    for (let k = 0; k < 3; k++) counts[indices[t + k]!]! += 2;
  }
  const offsets = new Uint32Array(vertexCount + 1);
  for (let v = 0; v < vertexCount; v++) offsets[v + 1] = offsets[v]! + counts[v]!;
  const fill = offsets.slice(0, vertexCount);
  const neighbours = new Uint32Array(offsets[vertexCount]!);
  for (let t = 0; t < indices.length; t += 3) {
    for (let k = 0; k < 3; k++) {
      const v = indices[t + k]!;
      neighbours[fill[v]!++] = indices[t + ((k + 1) % 3)]!;
      neighbours[fill[v]!++] = indices[t + ((k + 2) % 3)]!;
    }
  }
  return { offsets, neighbours };
}

/** One Laplacian step of `factor` (positive shrinks, negative inflates), in place. */
function step(positions: Float32Array, offsets: Uint32Array, neighbours: Uint32Array, factor: number): void {
  const before = positions.slice();
  const count = offsets.length - 1;
  for (let v = 0; v < count; v++) {
    const from = offsets[v]!;
    const to = offsets[v + 1]!;
    if (to === from) continue;
    for (let axis = 0; axis < 3; axis++) {
      let sum = 0;
      for (let i = from; i < to; i++) sum += before[neighbours[i]! * 3 + axis]!;
      const mean = sum / (to - from);
      positions[v * 3 + axis] = before[v * 3 + axis]! + factor * (mean - before[v * 3 + axis]!);
    }
  }
}

/** Smooths `vertices` (a copy is returned) with `iterations` Taubin λ/μ pairs. */
export function taubinSmooth(
  vertices: Float32Array,
  indices: Uint32Array,
  iterations: number,
  strength: number,
  afterIteration?: (i: number) => void,
): Float32Array {
  const positions = Float32Array.from(vertices);
  const { offsets, neighbours } = neighbourLists(vertices.length / 3, indices);
  const lambda = strength;
  const mu = -strength / (1 - 0.1 * strength);
  for (let i = 0; i < iterations; i++) {
    step(positions, offsets, neighbours, lambda);
    step(positions, offsets, neighbours, mu);
    afterIteration?.(i);
  }
  return positions;
}
