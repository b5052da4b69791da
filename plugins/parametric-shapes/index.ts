/**
 * @module parametric-shapes
 * Classic parametric meshes with smooth normals: a geodesic sphere, a torus, a (p, q) torus
 * knot and Gielis' supershape. All are closed, outward-facing triangle meshes, y up.
 */
import type { Color, Integer, MeshResult, SpecimenDeclaration } from 'vitrine';
import { buildIcosphere } from './icosphere-mesh.ts';
import { buildParametricMesh } from './parametric-surface.ts';
import { shadeByRadius } from './shade-by-radius.ts';
import { supershapeSurface } from './supershape-surface.ts';
import { torusKnotTube } from './torus-knot-curve.ts';

/**
 * A geodesic sphere: a subdivided icosahedron with evenly sized triangles.
 *
 * @param radius Sphere radius.
 * @param subdivisions How often each triangle is split into four (20 · 4^n triangles).
 * @minimum radius 0.01
 * @maximum radius 100
 * @minimum subdivisions 0
 * @maximum subdivisions 7
 */
export function icosphere(radius = 1, subdivisions: Integer = 4): MeshResult {
  return buildIcosphere(radius, subdivisions);
}

/**
 * A ring torus lying in the xz plane, its axis along y.
 *
 * @param major_radius Distance from the centre of the hole to the centre of the tube.
 * @param minor_radius Radius of the tube.
 * @param radial_segments Segments around the tube.
 * @param tubular_segments Segments around the ring.
 * @minimum major_radius 0.01
 * @maximum major_radius 100
 * @minimum minor_radius 0.005
 * @maximum minor_radius 50
 * @minimum radial_segments 3
 * @maximum radial_segments 256
 * @minimum tubular_segments 3
 * @maximum tubular_segments 1024
 */
export function torus(
  major_radius = 1,
  minor_radius = 0.35,
  radial_segments: Integer = 32,
  tubular_segments: Integer = 96,
): MeshResult {
  return buildParametricMesh(
    (u, v, out) => {
      const theta = u * 2 * Math.PI;
      const phi = v * 2 * Math.PI;
      const ring = major_radius + minor_radius * Math.cos(phi);
      out[0] = ring * Math.cos(theta);
      out[1] = minor_radius * Math.sin(phi);
      out[2] = ring * Math.sin(theta);
    },
    { uSegments: tubular_segments, vSegments: radial_segments, wrapU: true, wrapV: true, flip: true },
  );
}

/**
 * A tube around a (p, q) torus knot: the curve winds p times around the torus axis and q times
 * through the hole. Coprime p and q give a true knot (2, 3 is the trefoil).
 *
 * @param p Turns around the torus axis.
 * @param q Turns through the hole of the torus.
 * @param radius Overall radius of the knot.
 * @param tube Radius of the tube.
 * @param tubular_segments Segments along the knot.
 * @param radial_segments Segments around the tube.
 * @minimum p 1
 * @maximum p 16
 * @minimum q 1
 * @maximum q 16
 * @minimum radius 0.01
 * @maximum radius 100
 * @minimum tube 0.001
 * @maximum tube 50
 * @minimum tubular_segments 8
 * @maximum tubular_segments 4096
 * @minimum radial_segments 3
 * @maximum radial_segments 128
 */
export function torus_knot(
  p: Integer = 2,
  q: Integer = 3,
  radius = 1,
  tube = 0.16,
  tubular_segments: Integer = 256,
  radial_segments: Integer = 24,
): MeshResult {
  return buildParametricMesh(torusKnotTube(p, q, radius, tube), {
    uSegments: tubular_segments,
    vSegments: radial_segments,
    wrapU: true,
    wrapV: true,
  });
}

/**
 * Gielis' supershape: the superformula swept over longitude and latitude. It spans spheres,
 * cubes, stars and flowers with a handful of numbers; the result is scaled to `radius`.
 *
 * @param m Rotational symmetry around the vertical axis.
 * @param n1 Overall pinch: small values make sharp points.
 * @param n2 Shape of the cosine lobes.
 * @param n3 Shape of the sine lobes.
 * @param latitude_m Symmetry from pole to pole.
 * @param radius Largest distance from the centre after scaling.
 * @param segments Grid resolution along each direction.
 * @param colour Colour of the tips; the valleys get a darker shade of it.
 * @minimum m 0
 * @maximum m 32
 * @minimum n1 0.1
 * @maximum n1 50
 * @minimum n2 0.1
 * @maximum n2 50
 * @minimum n3 0.1
 * @maximum n3 50
 * @minimum latitude_m 0
 * @maximum latitude_m 32
 * @minimum radius 0.01
 * @maximum radius 100
 * @minimum segments 8
 * @maximum segments 512
 */
export function supershape(
  m = 7,
  n1 = 0.2,
  n2 = 1.7,
  n3 = 1.7,
  latitude_m = 7,
  radius = 1,
  segments: Integer = 128,
  colour: Color = '#e0913a',
): MeshResult {
  const mesh = buildParametricMesh(
    supershapeSurface({ m, n1, n2, n3 }, { m: latitude_m, n1: 1, n2: 1, n3: 1 }),
    { uSegments: segments, vSegments: segments, wrapU: true, wrapV: false, flip: true },
  );
  let extent = 0;
  const v = mesh.vertices;
  for (let i = 0; i < v.length; i += 3) extent = Math.max(extent, Math.hypot(v[i]!, v[i + 1]!, v[i + 2]!));
  const scale = extent > 0 ? radius / extent : 1;
  for (let i = 0; i < v.length; i++) v[i] = v[i]! * scale;
  return { ...mesh, colors: shadeByRadius(v, colour) };
}

export const specimens: SpecimenDeclaration[] = [
  {
    id: 'icosphere',
    function: 'icosphere',
    display_name: 'Geodesic sphere',
    description: 'A subdivided icosahedron: the sphere with nearly equal triangles.',
    tags: ['mesh', 'parametric', 'geometry'],
    thumbnail: './thumbnails/icosphere.png',
    story:
      'Start from the twenty equilateral faces of an icosahedron, split every triangle into four and push the new corners out to the sphere. Repeat, and ' +
      'the faceted solid melts into a ball whose triangles barely differ in size. Buckminster Fuller built domes this way, and many viruses build their ' +
      'capsids on the same icosahedral plan. Turn up the subdivisions and watch the facets vanish.',
  },
  {
    id: 'torus',
    function: 'torus',
    display_name: 'Torus',
    description: 'A ring torus: a circle swept around an axis in its plane.',
    tags: ['mesh', 'parametric', 'geometry', 'topology'],
    thumbnail: './thumbnails/torus.png',
    story:
      'Sweep a small circle around a large one and you get the torus, the simplest closed surface with a hole. Its outer rim curves like a sphere while ' +
      'its inner rim is saddle-shaped, so its curvature changes sign as you walk around the tube. Plasma physicists confine fusion plasmas in tokamaks of ' +
      'exactly this shape. Shrink the major radius below the minor one and the hole closes up.',
  },
  {
    id: 'torus-knot',
    function: 'torus_knot',
    display_name: 'Torus knot',
    description: 'A tube around the (2, 3) torus knot, the simplest knot there is.',
    tags: ['mesh', 'parametric', 'topology', 'knot'],
    thumbnail: './thumbnails/torus-knot.png',
    story:
      'This tube winds twice around the axis of an invisible torus while passing three times through its hole. The result is the trefoil, the simplest ' +
      'knot that cannot be untied without cutting. Lord Kelvin once hoped atoms were knotted vortices in the ether; today knots turn up in DNA, proteins ' +
      'and polymer physics. Try p = 3, q = 5 or p = 2, q = 7 to tie fancier torus knots.',
  },
  {
    id: 'supershape',
    function: 'supershape',
    display_name: 'Supershape',
    description: "Gielis' superformula swept into a 3D surface: stars, flowers, cushions.",
    tags: ['mesh', 'parametric', 'biology', 'geometry'],
    thumbnail: './thumbnails/supershape.png',
    story:
      'In 2003 the botanist Johan Gielis proposed one formula to describe starfish, petals, diatoms and crystals alike. Its symmetry number m sets how ' +
      'many lobes appear, and three exponents decide whether they bulge, pinch or square off. Multiplying two such curves, one around the equator and one ' +
      'from pole to pole, gives this solid. Small n1 values grow sharp spines; equal values near 2 round everything back into a sphere.',
  },
];
