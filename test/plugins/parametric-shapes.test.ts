/**
 * The parametric meshes have the geometry they claim: closed, outward-facing surfaces with
 * the analytic area and volume, and normals that agree with the faces.
 */
import { describe, expect, it } from 'vitest';
import { icosphere, supershape, torus, torus_knot } from '../../plugins/parametric-shapes/index.ts';
import { openOrInconsistentEdges, signedVolume, surfaceArea } from './mesh-measures.ts';

describe('parametric shapes', () => {
  it('icosphere: 20 · 4^n faces, every vertex on the sphere, normals radial', () => {
    const mesh = icosphere(2, 3);
    expect(mesh.indices.length / 3).toBe(20 * 4 ** 3);
    expect(mesh.vertices.length / 3).toBe((20 * 4 ** 3) / 2 + 2);
    for (let i = 0; i < mesh.vertices.length; i += 3) {
      const r = Math.hypot(mesh.vertices[i]!, mesh.vertices[i + 1]!, mesh.vertices[i + 2]!);
      expect(r).toBeCloseTo(2, 5);
      expect(mesh.normals![i]!).toBeCloseTo(mesh.vertices[i]! / 2, 5);
    }
    expect(openOrInconsistentEdges(mesh)).toEqual([]);
    expect(Math.abs(surfaceArea(mesh) / (16 * Math.PI) - 1)).toBeLessThan(0.01);
    expect(Math.abs(signedVolume(mesh) / ((32 / 3) * Math.PI) - 1)).toBeLessThan(0.02);
  });

  it('torus: closed, outward, area 4π²Rr and volume 2π²Rr²', () => {
    const [R, r] = [1.5, 0.4];
    const mesh = torus(R, r, 64, 128);
    expect(mesh.vertices.length / 3).toBe(64 * 128);
    expect(openOrInconsistentEdges(mesh)).toEqual([]);
    expect(Math.abs(surfaceArea(mesh) / (4 * Math.PI ** 2 * R * r) - 1)).toBeLessThan(0.01);
    expect(Math.abs(signedVolume(mesh) / (2 * Math.PI ** 2 * R * r * r) - 1)).toBeLessThan(0.01);
  });

  it('torus knot: a closed tube of the requested radius, outward-facing', () => {
    const tube = 0.1;
    const mesh = torus_knot(3, 5, 1, tube, 512, 16);
    expect(openOrInconsistentEdges(mesh)).toEqual([]);
    expect(signedVolume(mesh)).toBeGreaterThan(0);
    // Volume of a tube ≈ π r² · length; the 16-gon cross-section is a little smaller.
    const area = surfaceArea(mesh);
    const volume = signedVolume(mesh);
    expect(volume / area).toBeGreaterThan(tube / 2 * 0.95);
    expect(volume / area).toBeLessThan(tube / 2 * 1.05);
  });

  it('supershape: outward-facing, scaled to the radius, normals facing out', () => {
    const mesh = supershape(5, 0.5, 1.5, 1.5, 3, 2, 64);
    expect(signedVolume(mesh)).toBeGreaterThan(0);
    let extent = 0;
    let outward = 0;
    for (let i = 0; i < mesh.vertices.length; i += 3) {
      const [x, y, z] = [mesh.vertices[i]!, mesh.vertices[i + 1]!, mesh.vertices[i + 2]!];
      extent = Math.max(extent, Math.hypot(x, y, z));
      if (x * mesh.normals![i]! + y * mesh.normals![i + 1]! + z * mesh.normals![i + 2]! > 0) outward++;
    }
    expect(extent).toBeCloseTo(2, 4);
    expect(outward / (mesh.vertices.length / 3)).toBeGreaterThan(0.9);
  });
});

describe('supershape colour', () => {
  it('colours every vertex: the tips the picked colour, the valleys a darker shade of it', () => {
    const mesh = supershape(5, 0.5, 1.5, 1.5, 3, 2, 32, '#c86432');
    const colors = mesh.colors as Uint8Array;
    expect(colors).toBeInstanceOf(Uint8Array);
    expect(colors.length).toBe(mesh.vertices.length);
    const radius = (i: number) => Math.hypot(mesh.vertices[3 * i]!, mesh.vertices[3 * i + 1]!, mesh.vertices[3 * i + 2]!);
    const count = mesh.vertices.length / 3;
    let outer = 0;
    let inner = 0;
    for (let i = 1; i < count; i++) {
      if (radius(i) > radius(outer)) outer = i;
      if (radius(i) < radius(inner)) inner = i;
    }
    expect(Array.from(colors.subarray(3 * outer, 3 * outer + 3))).toEqual([200, 100, 50]);
    expect(Array.from(colors.subarray(3 * inner, 3 * inner + 3))).toEqual([60, 30, 15]);
    // The default applies when the parameter is left out (what `{}` gives).
    expect(Array.from((supershape().colors as Uint8Array).subarray(0, 3))).not.toEqual(Array.from(colors.subarray(0, 3)));
  });
});
