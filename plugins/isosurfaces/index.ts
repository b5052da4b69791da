/**
 * @module isosurfaces
 * Implicit surfaces turned into meshes: a scalar field is sampled on a grid and its level set
 * extracted with surface nets. Both functions are async, report progress at every slab and
 * stop promptly when their AbortSignal fires.
 */
import type { Integer, MeshResult, ProgressReporter, SpecimenDeclaration, VolumeInput } from 'vitrine';
import { specimenInput } from 'vitrine';
import { computeVertexNormals } from '../shared/mesh-normals.ts';
import { extractSurface } from './surface-nets.ts';
import { sampleRange, volumeField } from './volume-field.ts';
import { seededRandom } from '../shared/seeded-random.ts';
import { surfaceFromField } from './surface-pipeline.ts';

/**
 * Blobby "metaballs" that melt into each other: each ball adds a smooth bump (1 - d²/R²)³ of
 * compact support, and the surface is where the sum equals `level`.
 *
 * @param count Number of balls.
 * @param level Iso-level of the summed field, from 0.01 to 0.99: lower values merge the balls sooner.
 * @param resolution Grid samples along each axis.
 * @param seed Random seed for the ball positions and sizes.
 * @minimum count 1
 * @maximum count 32
 * @minimum level 0.01
 * @maximum level 0.99
 * @minimum resolution 8
 * @maximum resolution 160
 * @minimum seed 0
 * @maximum seed 1000000
 */
export async function metaball_surface(
  count: Integer = 12,
  level = 0.3,
  resolution: Integer = 64,
  seed: Integer = 11,
  progress?: ProgressReporter,
  signal?: AbortSignal,
): Promise<MeshResult> {
  const random = seededRandom(seed);
  const balls = Array.from({ length: count }, () => {
    const radius = 0.3 + 0.25 * random();
    // Keep every ball's support inside the sampled cube, so the surface is closed.
    const reach = 1 - radius - 0.05;
    return { x: (random() * 2 - 1) * reach, y: (random() * 2 - 1) * reach, z: (random() * 2 - 1) * reach, r2: radius * radius };
  });
  // The grid is sampled row by row, so only the balls whose support reaches the current slab
  // and row are summed: the field stays exact, and many balls stay cheap.
  let slabZ = NaN, rowY = NaN;
  let slabBalls = balls, rowBalls = balls;
  const field = (x: number, y: number, z: number): number => {
    if (z !== slabZ) { slabZ = z; rowY = NaN; slabBalls = balls.filter((b) => (z - b.z) ** 2 < b.r2); }
    if (y !== rowY) { rowY = y; rowBalls = slabBalls.filter((b) => (y - b.y) ** 2 + (z - b.z) ** 2 < b.r2); }
    let sum = 0;
    for (const ball of rowBalls) {
      const q = ((x - ball.x) ** 2 + (y - ball.y) ** 2 + (z - ball.z) ** 2) / ball.r2;
      if (q < 1) sum += (1 - q) ** 3;
    }
    return sum;
  };
  return surfaceFromField({ field, resolution, min: -1, max: 1, level, progress, signal });
}

/**
 * A solid sheet around the gyroid minimal surface (|sin x cos y + sin y cos z + sin z cos x| <
 * thickness), cut by a cube of `cells` periods and capped, so the mesh is a closed solid.
 *
 * @param cells Periods of the gyroid along each side of the cube.
 * @param thickness Half-thickness of the sheet, in field units.
 * @param resolution Grid samples along each axis.
 * @minimum cells 0.5
 * @maximum cells 6
 * @minimum thickness 0.05
 * @maximum thickness 1.2
 * @minimum resolution 8
 * @maximum resolution 160
 */
export async function gyroid_surface(
  cells = 1.5,
  thickness = 0.35,
  resolution: Integer = 72,
  progress?: ProgressReporter,
  signal?: AbortSignal,
): Promise<MeshResult> {
  // World cube [-1, 1]³ holds `cells` periods: one world unit is `scale` radians.
  const scale = cells * Math.PI;
  const field = (x: number, y: number, z: number): number => {
    const u = x * scale, v = y * scale, w = z * scale;
    const gyroid = Math.sin(u) * Math.cos(v) + Math.sin(v) * Math.cos(w) + Math.sin(w) * Math.cos(u);
    const sheet = thickness - Math.abs(gyroid);
    // Intersect with the cube |x|, |y|, |z| ≤ 0.96 (distance in radians, like the sheet).
    const box = (0.96 - Math.max(Math.abs(x), Math.abs(y), Math.abs(z))) * scale;
    return Math.min(sheet, box);
  };
  return surfaceFromField({ field, resolution, min: -1, max: 1, level: 0, progress, signal });
}

/**
 * The isosurface of any volume: the surface where the samples cross `level`, placed with the
 * volume's own spacing and origin. With no volume given it contours the CT head phantom; give
 * another volume specimen (`{"specimen": "gyroid-field"}`) or an uploaded `.npy`
 * (`{"upload": id}`).
 *
 * @param volume The volume to contour.
 * @param level Where the surface sits, as a fraction of the volume's value range from 0.01 to
 *   0.99 (0 would be its minimum, 1 its maximum), not a value of the volume.
 * @minimum level 0.01
 * @maximum level 0.99
 */
export async function isosurface(
  volume: VolumeInput = specimenInput('ct-head-phantom'),
  level = 0.3,
  progress?: ProgressReporter,
  signal?: AbortSignal,
): Promise<MeshResult> {
  if (volume.shape.length !== 3) throw new Error(`isosurface needs a 3-D volume, got shape [${volume.shape.join(', ')}]`);
  const field = volumeField(volume);
  const [min, max] = sampleRange(field.values);
  const threshold = min + level * (max - min);
  progress?.report(`contouring ${volume.shape.join('×')} ${volume.dtype} at ${threshold.toPrecision(4)}`, 0);
  const { vertices, indices } = await extractSurface(field, threshold, async (slab, slabs) => {
    progress?.report(`extracting surface ${slab + 1}/${slabs}`, ((slab + 1) / slabs) * 0.95);
    await new Promise<void>((resolve) => setImmediate(resolve));
    signal?.throwIfAborted();
  });
  const normals = computeVertexNormals(vertices, indices);
  progress?.report(`${vertices.length / 3} vertices, ${indices.length / 3} triangles`, 1);
  return { vertices, indices, normals };
}

export const specimens: SpecimenDeclaration[] = [
  {
    id: 'metaballs',
    function: 'metaball_surface',
    display_name: 'Metaballs',
    description: 'Soft spheres that merge like droplets, extracted from a scalar field.',
    tags: ['mesh', 'isosurface', 'implicit', 'progress'],
    thumbnail: './thumbnails/metaballs.png',
    story:
      'Jim Blinn invented these blobby objects in 1982 to draw electron density clouds around molecules. Every ball radiates a smooth field that fades to ' +
      'nothing at its edge; wherever the fields add up to the chosen level, the surface appears. Where two balls come close their fields sum, and a neck ' +
      'of material bridges them like merging raindrops. The mesh is built live: the field is sampled slab by slab and the surface is woven with surface ' +
      'nets, so you can watch the progress.',
  },
  {
    id: 'gyroid-sheet',
    function: 'gyroid_surface',
    display_name: 'Gyroid sheet',
    description: 'A thickened gyroid minimal surface cut into a cube: a closed, printable lattice.',
    tags: ['mesh', 'isosurface', 'minimal surface', 'materials', 'progress'],
    thumbnail: './thumbnails/gyroid-sheet.png',
    story:
      'The gyroid is a triply periodic minimal surface: at every point it curves equally and oppositely in two directions, so it has no flat spot and no ' +
      'straight line. It splits space into two congruent, interpenetrating tunnels. Here the surface is thickened into a sheet and cut into a cube, the ' +
      'way engineers 3D-print it for bone implants and heat exchangers. Peer through the holes: each tunnel twists like a spiral staircase, left-handed ' +
      'on one side of the sheet and right-handed on the other.',
  },
  {
    id: 'phantom-isosurface',
    thumbnail: './thumbnails/phantom-isosurface.png',
    function: 'isosurface',
    display_name: 'Isosurface of a volume',
    description: 'The level set of any volume: the CT head phantom by default, or any volume specimen or uploaded .npy.',
    tags: ['mesh', 'isosurface', 'input', 'progress'],
    story:
      'This specimen takes another specimen as its input. By default it reads the Shepp-Logan head phantom, a stack of ellipsoids standing in for skull, ' +
      'brain and ventricles, and draws the surface where the density crosses the chosen level: low levels show the skin of the head, higher ones the ' +
      'skull and the dense structures inside. Give it any other volume, a computed one or a .npy file you upload, and it contours that instead.',
  },
];
