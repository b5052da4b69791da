/**
 * @module result-checks
 * Assertions that a plugin result is well formed: array lengths agree with counts, indices
 * are in range, every value is finite, normals are unit length, volume data fills its shape.
 */
import { expect } from 'vitest';
import type { ImageResult, MeshResult, PointCloudResult, SpecimenResult, VolumeResult } from 'vitrine';

/** The kind of a result, from its fields (the `type` tag is optional for plugins). */
export function kindOf(result: SpecimenResult): 'mesh' | 'volume' | 'point_cloud' | 'image' {
  if ('vertices' in result) return 'mesh';
  if ('shape' in result) return 'volume';
  if ('points' in result) return 'point_cloud';
  return 'image';
}

function expectFinite(values: ArrayLike<number>, what: string): void {
  for (let i = 0; i < values.length; i++) {
    if (!Number.isFinite(values[i])) throw new Error(`${what}[${i}] is ${values[i]}`);
  }
}

export function expectWellFormedMesh(mesh: MeshResult): void {
  expect(mesh.vertices).toBeInstanceOf(Float32Array);
  expect(mesh.indices).toBeInstanceOf(Uint32Array);
  expect(mesh.vertices.length % 3).toBe(0);
  expect(mesh.indices.length % 3).toBe(0);
  expect(mesh.indices.length).toBeGreaterThan(0);
  expectFinite(mesh.vertices, 'vertices');
  const vertexCount = mesh.vertices.length / 3;
  let maxIndex = 0;
  for (const i of mesh.indices) if (i > maxIndex) maxIndex = i;
  expect(maxIndex).toBeLessThan(vertexCount);
  expect(mesh.normals).toBeInstanceOf(Float32Array);
  const normals = mesh.normals!;
  expect(normals.length).toBe(mesh.vertices.length);
  expectFinite(normals, 'normals');
  for (let v = 0; v < normals.length; v += 3) {
    const length = Math.hypot(normals[v]!, normals[v + 1]!, normals[v + 2]!);
    if (Math.abs(length - 1) > 1e-3) throw new Error(`normal ${v / 3} has length ${length}`);
  }
}

export function expectWellFormedVolume(volume: VolumeResult): void {
  // A volume with time or channels names its axes; spacing and origin stay spatial.
  expect(volume.shape).toHaveLength((volume.axes ?? 'zyx').length);
  if (volume.vector) expect(volume.shape[(volume.axes ?? '').indexOf('c')]).toBe(3);
  if (volume.channels) expect(volume.channels).toHaveLength(volume.shape[(volume.axes ?? '').indexOf('c')] ?? 1);
  const count = volume.shape.reduce((a, b) => a * b, 1);
  expect(volume.data.length).toBe(count);
  const arrays = { uint8: Uint8Array, uint16: Uint16Array, float32: Float32Array } as Record<string, unknown>;
  expect(arrays[volume.dtype], `dtype ${volume.dtype}`).toBeDefined();
  expect(volume.data).toBeInstanceOf(arrays[volume.dtype] as typeof Uint8Array);
  expect(volume.spacing).toHaveLength(3);
  expect(volume.origin).toHaveLength(3);
  for (const s of volume.spacing!) expect(s).toBeGreaterThan(0);
  expectFinite(volume.origin!, 'origin');
  expect(spreadOf(volume.data), 'a volume that is constant shows nothing').toBeGreaterThan(0);
}

/**
 * Max less min of `data`, throwing at the first value that is not finite. One indexed pass: a
 * time-lapse at its maximums holds 70 million samples, and two for-of passes over it cost 1.7 s.
 */
function spreadOf(data: ArrayLike<number>): number {
  let min = Infinity, max = -Infinity;
  for (let i = 0; i < data.length; i++) {
    const v = data[i]!;
    // False for NaN and for either infinity, true for every finite value.
    if (!(v - v === 0)) throw new Error(`data[${i}] is ${v}`);
    if (v < min) min = v;
    if (v > max) max = v;
  }
  return max - min;
}

export function expectWellFormedPointCloud(cloud: PointCloudResult): void {
  expect(cloud.points).toBeInstanceOf(Float32Array);
  expect(cloud.points.length % 3).toBe(0);
  const count = cloud.points.length / 3;
  expect(count).toBeGreaterThan(0);
  expectFinite(cloud.points, 'points');
  expect(cloud.colors).toBeInstanceOf(Uint8Array);
  expect(cloud.colors!.length).toBe(count * 3);
  expect(cloud.scalars).toBeInstanceOf(Float32Array);
  expect(cloud.scalars!.length).toBe(count);
  expectFinite(cloud.scalars!, 'scalars');
}

export function expectWellFormedImage(image: ImageResult): void {
  expect(Number.isInteger(image.width) && image.width > 0).toBe(true);
  expect(Number.isInteger(image.height) && image.height > 0).toBe(true);
  expect([3, 4]).toContain(image.channels);
  expect(image.dtype).toBe('uint8');
  expect(image.data).toBeInstanceOf(Uint8Array);
  expect(image.data.length).toBe(image.width * image.height * image.channels);
  const distinct = new Set<number>();
  for (let i = 0; i < image.data.length && distinct.size < 3; i += 97) distinct.add(image.data[i]!);
  expect(distinct.size, 'a blank image').toBeGreaterThan(1);
}

/** Checks `result` by its kind. */
export function expectWellFormed(result: SpecimenResult): void {
  switch (kindOf(result)) {
    case 'mesh': return expectWellFormedMesh(result as MeshResult);
    case 'volume': return expectWellFormedVolume(result as VolumeResult);
    case 'point_cloud': return expectWellFormedPointCloud(result as PointCloudResult);
    case 'image': return expectWellFormedImage(result as ImageResult);
  }
}
