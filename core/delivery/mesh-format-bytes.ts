/**
 * @module mesh-format-bytes
 * How many bytes a mesh takes in each format a delivery may ask for, so the delivery bound is
 * held against what would be sent, not against one format's size. From a mesh's counts: binary
 * STL exactly (84 + 50 per triangle), PLY exactly but for its header, the envelope and GLB at
 * most their arrays and a little framing. OBJ is text whose length hangs on every number
 * written, so its size from counts is an estimate only (within a few percent on surfaces), and
 * VTK's (text too) likewise; their writers stop once they pass the bound (formats/text-pieces.ts). A segment surface not made
 * yet is sized as a mesh of one vertex and two triangles per surface-nets face.
 */
import type { MeshResult } from '../sdk/result-types.ts';
import type { DeliveryOptions } from './delivery-options.ts';

/** Bytes of framing beyond the arrays: an envelope's preamble, a PLY header, GLB's JSON chunk (each at most). */
const FRAMING = 4096;
/** OBJ as written: about this many bytes per vertex line and per normal line (numbers with float32 precision). */
const OBJ_VERTEX_LINE = 20;
const OBJ_NORMAL_LINE = 28;

/** The counts a mesh's size in a format follows from. */
export function countsOf(mesh: MeshResult): { vertices: number; triangles: number; normals: boolean; colors: boolean } {
  return {
    vertices: Math.floor(mesh.vertices.length / 3),
    triangles: Math.floor(mesh.indices.length / 3),
    normals: mesh.normals !== undefined && mesh.normals.length === mesh.vertices.length,
    colors: mesh.colors !== undefined && mesh.colors.length === mesh.vertices.length,
  };
}

/** An OBJ face line's length: one-based indices of about half a digit fewer than the largest. */
function objFaceLine(vertices: number, withNormals: boolean): number {
  const digits = String(Math.max(1, vertices)).length - 0.5;
  return 2 + 3 * (withNormals ? 2 * digits + 3 : digits + 1);
}

/**
 * The bytes of a mesh of `counts` in `format`: exact or an upper bound for the binary formats
 * (colours as bytes), an estimate for OBJ (its writer holds the bound itself).
 */
export function meshFormatBytes(format: string, counts: ReturnType<typeof countsOf>, options: DeliveryOptions): number {
  const { vertices: v, triangles: t } = counts;
  switch (format) {
    case 'stl':
      return 84 + 50 * t;
    case 'ply':
      return FRAMING + v * (12 + (counts.normals ? 12 : 0) + (counts.colors ? 3 : 0)) + t * 13;
    case 'obj': {
      const withNormals = counts.normals && options.normals !== false;
      return v * (OBJ_VERTEX_LINE + (withNormals ? OBJ_NORMAL_LINE : 0)) + t * objFaceLine(v, withNormals);
    }
    case 'vtk':
      // OBJ's lines without their `v ` and `f ` (`3 ` instead), the indices zero-based, and a short header.
      return 128 + v * (OBJ_VERTEX_LINE - 2) + t * objFaceLine(v, false);
    default:
      // The envelope and GLB: the arrays themselves and their framing (meshopt only makes GLB smaller).
      return FRAMING + v * (12 + (counts.normals ? 12 : 0) + (counts.colors ? 3 : 0)) + t * 12;
  }
}

/** The bytes of a surface of `faces` surface-nets faces in `format` (with normals; `painted`: a colour per vertex). */
export function surfaceFormatBytes(format: string, faces: number, painted: boolean, options: DeliveryOptions): number {
  return meshFormatBytes(format, { vertices: faces, triangles: 2 * faces, normals: true, colors: painted }, options);
}

/** About the bytes per triangle a large mesh takes in `format`, for the `max_triangles` that fits a bound. */
export function triangleBytes(format: string, options: DeliveryOptions): number {
  const triangles = 1_000_000;
  return Math.ceil(meshFormatBytes(format, { vertices: triangles / 2, triangles, normals: true, colors: false }, options) / triangles);
}
