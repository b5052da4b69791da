/**
 * The VTK writer: a mesh as a legacy ASCII VTK polydata file, read back here by the file
 * format's own rules (header, `POINTS n float`, `POLYGONS t 4t` of `3 a b c` lines) rather than
 * by the writer's code, so the same vertices (float32 exactly) and triangles come out; and the
 * exact text of one triangle, the form Neuroglancer's VTK reader matches line by line.
 */
import { describe, expect, it } from 'vitest';
import { encodeVtk } from '../../core/formats/vtk/encode-vtk.ts';
import type { MeshResult } from '../../core/sdk/result-types.ts';
import { wavyGrid } from '../delivery/sample-results.ts';

/** Reads a legacy ASCII VTK polydata file of points and triangles; throws on anything else. */
function readVtk(bytes: Uint8Array): { vertices: Float32Array; indices: Uint32Array } {
  const lines = new TextDecoder().decode(bytes).split('\n');
  expect(lines[0]).toMatch(/^# vtk DataFile Version \d+\.\d+$/);
  expect(lines[2]).toBe('ASCII');
  expect(lines[3]).toBe('DATASET POLYDATA');
  const points = /^POINTS (\d+) float$/.exec(lines[4]!);
  if (!points) throw new Error(`no POINTS header: ${lines[4]}`);
  const n = Number(points[1]);
  const vertices = new Float32Array(lines.slice(5, 5 + n).flatMap((line) => line.split(' ').map(Number)));
  expect(vertices.length).toBe(3 * n);
  const polygons = /^POLYGONS (\d+) (\d+)$/.exec(lines[5 + n]!);
  if (!polygons) throw new Error(`no POLYGONS header: ${lines[5 + n]}`);
  const t = Number(polygons[1]);
  expect(Number(polygons[2])).toBe(4 * t);
  const faces = lines.slice(6 + n, 6 + n + t).map((line) => line.split(' ').map(Number));
  for (const face of faces) expect(face[0]).toBe(3);
  expect(lines.slice(6 + n + t)).toEqual(['']);
  return { vertices, indices: new Uint32Array(faces.flatMap((face) => face.slice(1))) };
}

describe('a mesh as VTK', () => {
  it('reads back as the same vertices and triangles, normals left out', () => {
    const mesh = wavyGrid(7);
    const back = readVtk(encodeVtk(mesh));
    // A negative zero is written as 0, the same number.
    expect(Array.from(back.vertices)).toEqual(Array.from(mesh.vertices, (v) => v + 0));
    expect(Array.from(back.indices)).toEqual(Array.from(mesh.indices));
  });

  it('writes one triangle as the plain lines a VTK reader matches', () => {
    const mesh: MeshResult = { vertices: Float32Array.of(0, 0, 0, 1.5, 0, 0, 0, 0.1, 2), indices: Uint32Array.of(0, 1, 2) };
    const text = new TextDecoder().decode(encodeVtk(mesh));
    const header = ['# vtk DataFile Version 3.0', 'vitrine', 'ASCII', 'DATASET POLYDATA'];
    expect(text).toBe([...header, 'POINTS 3 float', '0 0 0', '1.5 0 0', '0 0.100000001 2', 'POLYGONS 1 4', '3 0 1 2', ''].join('\n'));
  });
});
