/**
 * Small results of every kind for the format tests: meshes with and without normals (one
 * with more vertices than 16-bit indices reach), a volume per dtype family, point clouds with
 * byte and float colours and scalars, and images of each dtype.
 */
import type { StoredResult } from '../../core/results/stored-result.ts';

export type MeshSample = StoredResult & { type: 'mesh' };

/** A wavy grid of `n` × `n` vertices over [-1, 1]², two triangles per cell, with normals. */
export function wavyGrid(n: number, withNormals = true): MeshSample {
  const vertices = new Float32Array(n * n * 3);
  const normals = new Float32Array(n * n * 3);
  for (let i = 0; i < n; i++) {
    for (let j = 0; j < n; j++) {
      const x = (i / (n - 1)) * 2 - 1;
      const y = (j / (n - 1)) * 2 - 1;
      const k = (i * n + j) * 3;
      vertices.set([x, y, 0.2 * Math.sin(3 * x) * Math.cos(2 * y)], k);
      const dx = 0.6 * Math.cos(3 * x) * Math.cos(2 * y);
      const dy = -0.4 * Math.sin(3 * x) * Math.sin(2 * y);
      const length = Math.hypot(dx, dy, 1);
      normals.set([-dx / length, -dy / length, 1 / length], k);
    }
  }
  const indices = new Uint32Array((n - 1) * (n - 1) * 6);
  let at = 0;
  for (let i = 0; i < n - 1; i++) {
    for (let j = 0; j < n - 1; j++) {
      const a = i * n + j;
      indices.set([a, a + n, a + n + 1, a, a + n + 1, a + 1], at);
      at += 6;
    }
  }
  return withNormals ? { type: 'mesh', vertices, indices, normals } : { type: 'mesh', vertices, indices };
}

export function rampVolume(): StoredResult & { type: 'volume' } {
  const shape = [3, 4, 5];
  const data = Float32Array.from({ length: 60 }, (_, i) => Math.sin(i) * 100);
  return { type: 'volume', shape, dtype: 'float32', data, spacing: [2, 1, 0.5], origin: [0, 1, 2] };
}

export function byteVolume(): StoredResult & { type: 'volume' } {
  return { type: 'volume', shape: [2, 3, 7], dtype: 'uint16', data: Uint16Array.from({ length: 42 }, (_, i) => i * 1500) };
}

export function cloud(colors: 'bytes' | 'floats' | 'none', scalars: boolean): StoredResult & { type: 'point_cloud' } {
  const count = 50;
  const points = Float32Array.from({ length: count * 3 }, (_, i) => Math.cos(i * 0.7) * (i % 7));
  const result: StoredResult & { type: 'point_cloud' } = { type: 'point_cloud', points };
  if (colors === 'bytes') result.colors = Uint8Array.from({ length: count * 3 }, (_, i) => (i * 29) & 255);
  if (colors === 'floats') result.colors = Float32Array.from({ length: count * 3 }, (_, i) => ((i * 29) % 256) / 255);
  if (scalars) result.scalars = Float32Array.from({ length: count }, (_, i) => i / 3 - 4);
  return result;
}

export function image(dtype: 'uint8' | 'uint16' | 'float32', channels: 1 | 2 | 3 | 4): StoredResult & { type: 'image' } {
  const [width, height] = [7, 5];
  const n = width * height * channels;
  const data =
    dtype === 'uint8' ? Uint8Array.from({ length: n }, (_, i) => (i * 37) & 255)
    : dtype === 'uint16' ? Uint16Array.from({ length: n }, (_, i) => (i * 4099) & 0xffff)
    : Float32Array.from({ length: n }, (_, i) => Math.sin(i) * 3);
  return { type: 'image', width, height, channels, dtype, data };
}
