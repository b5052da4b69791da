/**
 * Grid clustering, the cheap simplifier of large reductions: within the budget and near it,
 * every index in range, no degenerate or repeated triangle, the bounding box kept, the
 * winding kept (a closed surface still faces out), normals of unit length; and simplifyMesh
 * takes it only for reductions of ten times or more.
 */
import { describe, expect, it } from 'vitest';
import { clusterMesh, type ClusteredMesh } from '../../core/geometry/cluster-mesh.ts';
import { CLUSTER_REDUCTION, simplifyMesh } from '../../core/geometry/simplify-mesh.ts';

/** A UV sphere of about `triangles` triangles, wound to face out, with unit normals. */
function sphere(triangles: number): ClusteredMesh {
  const columns = Math.round(Math.sqrt(triangles));
  const rows = Math.round(triangles / (2 * columns));
  const vertices: number[] = [];
  for (let r = 0; r <= rows; r++) {
    const theta = (Math.PI * r) / rows;
    for (let c = 0; c <= columns; c++) {
      const phi = (2 * Math.PI * c) / columns;
      vertices.push(Math.sin(theta) * Math.cos(phi), Math.cos(theta), Math.sin(theta) * Math.sin(phi));
    }
  }
  const indices: number[] = [];
  for (let r = 0; r < rows; r++) {
    for (let c = 0; c < columns; c++) {
      const a = r * (columns + 1) + c;
      const b = a + columns + 1;
      indices.push(a, a + 1, b, a + 1, b + 1, b);
    }
  }
  return { vertices: Float32Array.from(vertices), indices: Uint32Array.from(indices), normals: Float32Array.from(vertices) };
}

/** Triangles whose face normal points away from the origin, as a share of all non-flat ones. */
function facingOut(mesh: ClusteredMesh): number {
  const p = (i: number) => [mesh.vertices[i * 3]!, mesh.vertices[i * 3 + 1]!, mesh.vertices[i * 3 + 2]!];
  let out = 0;
  let counted = 0;
  for (let t = 0; t < mesh.indices.length; t += 3) {
    const [a, b, c] = [p(mesh.indices[t]!), p(mesh.indices[t + 1]!), p(mesh.indices[t + 2]!)];
    const u = [b[0]! - a[0]!, b[1]! - a[1]!, b[2]! - a[2]!];
    const v = [c[0]! - a[0]!, c[1]! - a[1]!, c[2]! - a[2]!];
    const n = [u[1]! * v[2]! - u[2]! * v[1]!, u[2]! * v[0]! - u[0]! * v[2]!, u[0]! * v[1]! - u[1]! * v[0]!];
    const dot = n[0]! * (a[0]! + b[0]! + c[0]!) + n[1]! * (a[1]! + b[1]! + c[1]!) + n[2]! * (a[2]! + b[2]! + c[2]!);
    if (dot === 0) continue;
    counted++;
    if (dot > 0) out++;
  }
  return out / counted;
}

function bounds(vertices: Float32Array): number[][] {
  const min = [Infinity, Infinity, Infinity];
  const max = [-Infinity, -Infinity, -Infinity];
  vertices.forEach((x, i) => {
    min[i % 3] = Math.min(min[i % 3]!, x);
    max[i % 3] = Math.max(max[i % 3]!, x);
  });
  return [min, max];
}

describe('clusterMesh', () => {
  const input = sphere(200_000);

  it.each([20_000, 2_000, 100])('reduces a %i-triangle budget to a valid mesh just under it', (budget) => {
    expect(facingOut(input)).toBe(1);
    const out = clusterMesh(input, budget);
    const triangles = out.indices.length / 3;
    expect(triangles).toBeLessThanOrEqual(budget);
    expect(triangles).toBeGreaterThan(budget / 2);
    const vertexCount = out.vertices.length / 3;
    expect(Math.max(...out.indices)).toBe(vertexCount - 1);
    const seen = new Set<string>();
    for (let t = 0; t < out.indices.length; t += 3) {
      const [a, b, c] = [out.indices[t]!, out.indices[t + 1]!, out.indices[t + 2]!];
      expect(a !== b && b !== c && a !== c).toBe(true);
      const start = Math.min(a, b, c);
      const key = start === a ? [a, b, c] : start === b ? [b, c, a] : [c, a, b];
      expect(seen.has(key.join())).toBe(false);
      seen.add(key.join());
    }
    expect(bounds(out.vertices)).toEqual(bounds(input.vertices));
    expect(facingOut(out)).toBeGreaterThan(0.999);
    expect(out.normals).toHaveLength(out.vertices.length);
    for (let v = 0; v < vertexCount; v++) expect(Math.hypot(out.normals![v * 3]!, out.normals![v * 3 + 1]!, out.normals![v * 3 + 2]!)).toBeCloseTo(1, 5);
  });

  it('keeps no normals when the mesh has none, and gives an empty mesh for a flat point', () => {
    const bare = clusterMesh({ vertices: input.vertices, indices: input.indices }, 1000);
    expect(bare.normals).toBeUndefined();
    expect(bare.indices.length / 3).toBeLessThanOrEqual(1000);
    const point = clusterMesh({ vertices: new Float32Array(9), indices: Uint32Array.from([0, 1, 2, 2, 1, 0]) }, 1);
    expect(point.indices).toHaveLength(0);
    expect(point.vertices).toHaveLength(0);
  });
});

describe('simplifyMesh', () => {
  const shared = (mesh: ClusteredMesh) => {
    const copy = <T extends Float32Array | Uint32Array>(a: T): T => {
      const s = new (a.constructor as new (b: SharedArrayBuffer) => T)(new SharedArrayBuffer(a.byteLength));
      s.set(a);
      return s;
    };
    return { type: 'mesh' as const, vertices: copy(mesh.vertices), indices: copy(mesh.indices), normals: copy(mesh.normals!) };
  };
  const input = shared(sphere(20_000));

  it('clusters a reduction of ten times or more, collapses edges for a smaller one', async () => {
    const triangles = input.indices.length / 3;
    const clustered = await simplifyMesh(input, Math.floor(triangles / CLUSTER_REDUCTION));
    const collapsed = await simplifyMesh(input, Math.floor(triangles / CLUSTER_REDUCTION) + 100);
    expect(clustered).toEqual({ type: 'mesh', ...clusterMesh(input, Math.floor(triangles / CLUSTER_REDUCTION)) });
    expect(collapsed.indices.length / 3).toBeLessThanOrEqual(Math.floor(triangles / CLUSTER_REDUCTION) + 100);
    expect(collapsed).not.toEqual(clustered);
    for (const mesh of [clustered, collapsed]) {
      expect(mesh.vertices.buffer).toBeInstanceOf(SharedArrayBuffer);
      expect(mesh.indices.buffer).toBeInstanceOf(SharedArrayBuffer);
      expect(mesh.normals!.buffer).toBeInstanceOf(SharedArrayBuffer);
    }
    expect(await simplifyMesh(input, triangles)).toBe(input);
  });
});
