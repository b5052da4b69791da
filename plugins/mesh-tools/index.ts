/**
 * @module mesh-tools
 * Tools that take any mesh as their input: a simplifier and a smoother. The mesh can be
 * another specimen (the cinquefoil knot by default, so `{}` works) or an uploaded `.stl`,
 * `.obj`, `.glb` or `.ply`.
 */
import type { Integer, MeshInput, MeshResult, ProgressReporter, SpecimenDeclaration } from 'vitrine';
import { specimenInput } from 'vitrine';
import { computeVertexNormals } from '../shared/mesh-normals.ts';
import { simplifyMesh } from './simplify.ts';
import { taubinSmooth } from './smooth.ts';

/**
 * Fewer triangles, same shape: meshoptimizer's simplifier collapses edges until about
 * `ratio` of the triangles remain, never moving the surface by more than `error` (a fraction
 * of the mesh's size).
 *
 * @param mesh The mesh to simplify (a specimen or an upload).
 * @param ratio The share of triangles to keep, from 0.01 to 1.
 * @param error The largest deviation allowed, as a fraction of the mesh's extent from 0.0001 to 0.2.
 * @minimum ratio 0.01
 * @maximum ratio 1
 * @minimum error 0.0001
 * @maximum error 0.2
 */
export async function simplify_mesh(
  mesh: MeshInput = specimenInput('cinquefoil-knot'),
  ratio = 0.25,
  error = 0.01,
  progress?: ProgressReporter,
): Promise<MeshResult> {
  progress?.report(`simplifying ${mesh.indices.length / 3} triangles`, 0);
  const simplified = await simplifyMesh(mesh, ratio, error);
  const normals = computeVertexNormals(simplified.vertices, simplified.indices);
  progress?.report(`${simplified.indices.length / 3} triangles left (error ${simplified.error.toPrecision(2)})`, 1);
  return { vertices: simplified.vertices, indices: simplified.indices, normals };
}

/**
 * A smoother surface: Taubin smoothing removes noise (a scan's bumps, a simplifier's facets)
 * without shrinking the mesh.
 *
 * @param mesh The mesh to smooth (a specimen or an upload).
 * @param iterations Smoothing passes.
 * @param strength How far each pass moves a vertex toward its neighbours.
 * @minimum iterations 1
 * @maximum iterations 100
 * @minimum strength 0.05
 * @maximum strength 0.9
 */
export function smooth_mesh(
  mesh: MeshInput = specimenInput('cinquefoil-knot'),
  iterations: Integer = 10,
  strength = 0.5,
  progress?: ProgressReporter,
): MeshResult {
  const vertices = taubinSmooth(mesh.vertices, mesh.indices, iterations, strength, (i) =>
    progress?.report(`pass ${i + 1}/${iterations}`, (i + 1) / iterations),
  );
  return { vertices, indices: mesh.indices, normals: computeVertexNormals(vertices, mesh.indices) };
}

export const specimens: SpecimenDeclaration[] = [
  {
    id: 'simplified-mesh',
    thumbnail: './thumbnails/simplified-mesh.png',
    function: 'simplify_mesh',
    display_name: 'Simplified mesh',
    description: 'Any mesh with fewer triangles: the cinquefoil knot by default, or a specimen or file of your own.',
    tags: ['mesh', 'input', 'simplification'],
    story:
      'Scans and simulations make meshes with far more triangles than a headset can draw. This specimen takes another mesh as its input and collapses its ' +
      'edges one by one, always the collapse that changes the shape least, until only a quarter of the triangles remain. Drop your own STL or OBJ onto ' +
      'the viewer to simplify it.',
  },
  {
    id: 'smoothed-mesh',
    thumbnail: './thumbnails/smoothed-mesh.png',
    function: 'smooth_mesh',
    display_name: 'Smoothed mesh',
    description: 'Any mesh, smoothed without shrinking: the cinquefoil knot by default, or a specimen or file of your own.',
    tags: ['mesh', 'input', 'smoothing'],
    story:
      'Each pass pulls every vertex toward the average of its neighbours, then pushes it slightly back out: the bumps flatten but the mesh keeps its ' +
      'size. It takes any mesh as its input, a computed one or an uploaded scan.',
  },
];
