/**
 * @module mesh-format-bytes.test
 * A mesh's size in each delivery format from its counts, against the writers themselves: STL
 * exact, PLY, GLB and the envelope never under what is written, OBJ and VTK within a fifth
 * either way (their writers hold the bound themselves), for meshes with and without normals and
 * colours.
 */
import { describe, expect, it } from 'vitest';
import { countsOf, meshFormatBytes } from '../../core/delivery/mesh-format-bytes.ts';
import { encodeMeshEnvelope } from '../../core/envelope/encode-envelope.ts';
import { encodeGlb } from '../../core/formats/glb/encode-glb.ts';
import { encodeObj } from '../../core/formats/obj/encode-obj.ts';
import { OutputTooLarge } from '../../core/formats/format-error.ts';
import { encodeMeshPly } from '../../core/formats/ply/encode-mesh-ply.ts';
import { encodeStl } from '../../core/formats/stl/encode-stl.ts';
import { encodeVtk } from '../../core/formats/vtk/encode-vtk.ts';
import type { MeshResult } from '../../core/sdk/result-types.ts';

/** A grid of `n`² vertices, two triangles per cell, with normals and colours when asked. */
function grid(n: number, extras: boolean): MeshResult {
  const vertices = new Float32Array(n * n * 3).map((_, i) => (i % 3 === 2 ? Math.sin(i) * 0.25 : Math.floor(i / 3) * 0.5));
  const indices: number[] = [];
  for (let y = 0; y + 1 < n; y++) {
    for (let x = 0; x + 1 < n; x++) {
      const at = y * n + x;
      indices.push(at, at + 1, at + n, at + 1, at + n + 1, at + n);
    }
  }
  const mesh: MeshResult = { vertices, indices: new Uint32Array(indices) };
  if (extras) {
    mesh.normals = new Float32Array(vertices.length).map((_, i) => (i % 3 === 2 ? 1 : 0));
    mesh.colors = new Uint8Array(vertices.length).fill(200);
  }
  return mesh;
}

const bytesOf = (parts: ArrayBufferView[]) => parts.reduce((sum, part) => sum + part.byteLength, 0);

describe('a mesh size by format', () => {
  for (const extras of [false, true]) {
    it(`is exact for STL and never under for PLY, GLB and the envelope (${extras ? 'normals and colours' : 'bare'})`, async () => {
      const mesh = grid(120, extras);
      const counts = countsOf(mesh);
      expect(meshFormatBytes('stl', counts, {})).toBe(encodeStl(mesh).length);
      expect(meshFormatBytes('ply', counts, {})).toBeGreaterThanOrEqual(encodeMeshPly(mesh).length);
      expect(meshFormatBytes('glb', counts, {})).toBeGreaterThanOrEqual((await encodeGlb(mesh, { meshopt: false })).length);
      expect(meshFormatBytes('envelope', counts, {})).toBeGreaterThanOrEqual(bytesOf(encodeMeshEnvelope(mesh).parts));
      for (const normals of [undefined, false] as const) {
        const written = encodeObj(mesh, { normals: normals !== false }).length;
        const told = meshFormatBytes('obj', counts, normals === false ? { normals } : {});
        expect(told / written).toBeGreaterThan(0.8);
        expect(told / written).toBeLessThan(1.2);
      }
      const vtk = meshFormatBytes('vtk', counts, {}) / encodeVtk(mesh).length;
      expect(vtk).toBeGreaterThan(0.8);
      expect(vtk).toBeLessThan(1.2);
    });
  }

  it('OBJ stops once it passes the bound it is given', () => {
    const mesh = grid(200, true);
    const whole = encodeObj(mesh).length;
    expect(() => encodeObj(mesh, { maxBytes: whole - 1 })).toThrow(OutputTooLarge);
    expect(encodeObj(mesh, { maxBytes: whole }).length).toBe(whole);
  });

  it('VTK stops once it passes the bound it is given', () => {
    const mesh = grid(200, false);
    const whole = encodeVtk(mesh).length;
    expect(() => encodeVtk(mesh, { maxBytes: whole - 1 })).toThrow(OutputTooLarge);
    expect(encodeVtk(mesh, { maxBytes: whole }).length).toBe(whole);
  });
});
