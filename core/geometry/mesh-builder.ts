/**
 * @module mesh-builder
 * A triangle mesh grown a vertex and a triangle at a time in typed arrays that double when
 * full, so a surface of unknown size costs no per-vertex objects; finished as a stored mesh in
 * shared memory (the form every result takes) with smooth normals (each vertex the
 * area-weighted sum of its triangles' normals) and optional per-vertex colours.
 */
import { toSharedFloat32, toSharedUint32 } from '../formats/shared-arrays.ts';
import type { StoredResult } from '../results/stored-result.ts';

type StoredMesh = Extract<StoredResult, { type: 'mesh' }>;

export class MeshBuilder {
  positions: Float32Array;
  indices: Uint32Array;
  colors: Uint8Array | null = null;
  vertexCount = 0;
  indexCount = 0;

  /** `vertices`: a guess of how many there will be (the arrays grow past it). */
  constructor(vertices = 1024) {
    this.positions = new Float32Array(3 * vertices);
    this.indices = new Uint32Array(6 * vertices);
  }

  /** Adds a vertex; returns its index. */
  vertex(x: number, y: number, z: number): number {
    if (this.vertexCount * 3 + 3 > this.positions.length) this.positions = grow(this.positions);
    const at = this.vertexCount * 3;
    this.positions[at] = x;
    this.positions[at + 1] = y;
    this.positions[at + 2] = z;
    return this.vertexCount++;
  }

  triangle(a: number, b: number, c: number): void {
    if (this.indexCount + 3 > this.indices.length) this.indices = grow(this.indices);
    this.indices[this.indexCount++] = a;
    this.indices[this.indexCount++] = b;
    this.indices[this.indexCount++] = c;
  }

  /** Colours the vertices from `from` on (those of the last part added). */
  paint(from: number, rgb: readonly [number, number, number]): void {
    if (!this.colors || this.colors.length < this.vertexCount * 3) {
      const colors = new Uint8Array(this.positions.length);
      if (this.colors) colors.set(this.colors);
      this.colors = colors;
    }
    const [r, g, b] = rgb;
    for (let v = from * 3; v < this.vertexCount * 3; v += 3) {
      this.colors[v] = r;
      this.colors[v + 1] = g;
      this.colors[v + 2] = b;
    }
  }

  /** The mesh so far, in shared memory, with smooth normals. */
  finish(): StoredMesh {
    const positions = this.positions.subarray(0, this.vertexCount * 3);
    const triangles = this.indices.subarray(0, this.indexCount);
    // Normals from the builder's own arrays: reading shared memory in a tight loop is slower.
    const normals = toSharedFloat32(smoothNormals(positions, triangles));
    const mesh: StoredMesh = { type: 'mesh', vertices: toSharedFloat32(positions), indices: toSharedUint32(triangles), normals };
    if (this.colors) {
      mesh.colors = new Uint8Array(new SharedArrayBuffer(this.vertexCount * 3));
      mesh.colors.set(this.colors.subarray(0, this.vertexCount * 3));
    }
    return mesh;
  }
}

/** `array` copied into one twice as long. */
export function grow<T extends Float32Array | Float64Array | Int32Array | Uint32Array>(array: T): T {
  const bigger = new (array.constructor as new (n: number) => T)(array.length * 2);
  bigger.set(array);
  return bigger;
}

/** Unit normals per vertex: the sum of its triangles' (area-weighted) normals. */
export function smoothNormals(vertices: ArrayLike<number>, indices: ArrayLike<number>): Float32Array {
  const sums = new Float64Array(vertices.length);
  for (let t = 0; t < indices.length; t += 3) {
    const a = indices[t]! * 3;
    const b = indices[t + 1]! * 3;
    const c = indices[t + 2]! * 3;
    const ux = vertices[b]! - vertices[a]!, uy = vertices[b + 1]! - vertices[a + 1]!, uz = vertices[b + 2]! - vertices[a + 2]!;
    const vx = vertices[c]! - vertices[a]!, vy = vertices[c + 1]! - vertices[a + 1]!, vz = vertices[c + 2]! - vertices[a + 2]!;
    // The cross product's length is twice the triangle's area: larger triangles weigh more.
    const nx = uy * vz - uz * vy, ny = uz * vx - ux * vz, nz = ux * vy - uy * vx;
    sums[a]! += nx;
    sums[a + 1]! += ny;
    sums[a + 2]! += nz;
    sums[b]! += nx;
    sums[b + 1]! += ny;
    sums[b + 2]! += nz;
    sums[c]! += nx;
    sums[c + 1]! += ny;
    sums[c + 2]! += nz;
  }
  const normals = new Float32Array(vertices.length);
  for (let v = 0; v < sums.length; v += 3) {
    const length = Math.hypot(sums[v]!, sums[v + 1]!, sums[v + 2]!) || 1;
    normals[v] = sums[v]! / length;
    normals[v + 1] = sums[v + 1]! / length;
    normals[v + 2] = sums[v + 2]! / length;
  }
  return normals;
}
