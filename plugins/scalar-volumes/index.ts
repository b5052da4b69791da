/**
 * @module scalar-volumes
 * Scientific scalar volumes with physical spacing and origin: Gaussian blobs, a gyroid field,
 * a CT-like Shepp-Logan head phantom and its segmentation (a labels volume).
 */
import type { Integer, SpecimenDeclaration, VolumeResult } from 'vitrine';
import { seededRandom } from '../shared/seeded-random.ts';
import { sampleSheppLogan } from './shepp-logan.ts';
import { labelSheppLogan, SHEPP_LOGAN_LABEL_NAMES } from './shepp-logan-labels.ts';

/**
 * A sum of randomly placed 3D Gaussians in the cube [-1, 1]³: a stand-in for a density map or
 * a fluorescence stack. Values are float32, peaking near 1.
 *
 * @param count Number of blobs.
 * @param size Samples along each axis.
 * @param width Standard deviation of the largest blob, in box units.
 * @param seed Random seed: the same seed gives the same volume.
 * @minimum count 1
 * @maximum count 64
 * @minimum size 8
 * @maximum size 192
 * @minimum width 0.02
 * @maximum width 1
 * @minimum seed 0
 * @maximum seed 1000000
 */
export function gaussian_blobs(count: Integer = 7, size: Integer = 64, width = 0.22, seed: Integer = 7): VolumeResult {
  const random = seededRandom(seed);
  const blobs = Array.from({ length: count }, () => ({
    x: random() * 1.4 - 0.7,
    y: random() * 1.4 - 0.7,
    z: random() * 1.4 - 0.7,
    sigma: width * (0.45 + 0.55 * random()),
    amplitude: 0.4 + 0.6 * random(),
  }));
  const step = 2 / (size - 1);
  const data = new Float32Array(size * size * size);
  const column = new Float64Array(size);
  for (const { x, y, z, sigma, amplitude } of blobs) {
    // exp(-(dx² + dy² + dz²)/2σ²) factorises per axis: precompute the x factor once per blob.
    const k = -1 / (2 * sigma * sigma);
    for (let xi = 0; xi < size; xi++) column[xi] = Math.exp(k * (-1 + xi * step - x) ** 2);
    for (let zi = 0; zi < size; zi++) {
      const fz = amplitude * Math.exp(k * (-1 + zi * step - z) ** 2);
      if (fz < 1e-7) continue;
      for (let yi = 0; yi < size; yi++) {
        const fzy = fz * Math.exp(k * (-1 + yi * step - y) ** 2);
        if (fzy < 1e-7) continue;
        const row = (zi * size + yi) * size;
        for (let xi = 0; xi < size; xi++) data[row + xi] = data[row + xi]! + fzy * column[xi]!;
      }
    }
  }
  return { type: 'volume', shape: [size, size, size], dtype: 'float32', data, spacing: [step, step, step], origin: [-1, -1, -1] };
}

/**
 * The gyroid field sin x cos y + sin y cos z + sin z cos x over a cube of `cells` periods per
 * side; its zero level set is the gyroid minimal surface. Physical units: one period = 1 µm.
 *
 * @param size Samples along each axis.
 * @param cells Periods of the gyroid along each axis.
 * @minimum size 8
 * @maximum size 192
 * @minimum cells 0.5
 * @maximum cells 8
 */
export function gyroid_field(size: Integer = 64, cells = 2): VolumeResult {
  const data = new Float32Array(size * size * size);
  const step = (cells * 2 * Math.PI) / (size - 1);
  const sin = Float64Array.from({ length: size }, (_, i) => Math.sin(i * step));
  const cos = Float64Array.from({ length: size }, (_, i) => Math.cos(i * step));
  let w = 0;
  for (let z = 0; z < size; z++) {
    for (let y = 0; y < size; y++) {
      for (let x = 0; x < size; x++) {
        data[w++] = sin[x]! * cos[y]! + sin[y]! * cos[z]! + sin[z]! * cos[x]!;
      }
    }
  }
  const spacing = cells / (size - 1);
  return { type: 'volume', shape: [size, size, size], dtype: 'float32', data, spacing: [spacing, spacing, spacing], origin: [0, 0, 0] };
}

/**
 * The 3D Shepp-Logan head phantom, the standard test object of tomography, as integer CT-like
 * data: 12-bit values in uint16 (skull 4095) or 8-bit values in uint8 (skull 255), on a 240 mm
 * field of view centred on the origin.
 *
 * @param size Voxels along each axis.
 * @param dtype Element type of the samples.
 * @minimum size 16
 * @maximum size 256
 */
export function shepp_logan_phantom(size: Integer = 96, dtype: 'uint16' | 'uint8' = 'uint16'): VolumeResult {
  const density = sampleSheppLogan(size);
  const spacing = 240 / size;
  const geometry = { shape: [size, size, size], spacing: [spacing, spacing, spacing], origin: [-120 + spacing / 2, -120 + spacing / 2, -120 + spacing / 2] };
  const quantised = <T extends Uint8Array | Uint16Array>(data: T, top: number): T => {
    for (let i = 0; i < data.length; i++) data[i] = Math.round(Math.min(1, Math.max(0, density[i]!)) * top);
    return data;
  };
  if (dtype === 'uint8') return { type: 'volume', dtype, data: quantised(new Uint8Array(density.length), 255), ...geometry };
  return { type: 'volume', dtype, data: quantised(new Uint16Array(density.length), 4095), ...geometry };
}

/**
 * The segmentation of the Shepp-Logan phantom: skull, brain, the two ventricles and the
 * lesions, each a label with its name, on the phantom's own grid and field of view, so it
 * lies voxel for voxel on `shepp_logan_phantom` of the same size.
 *
 * @param size Voxels along each axis.
 * @minimum size 16
 * @maximum size 256
 */
export function shepp_logan_segmentation(size: Integer = 96): VolumeResult {
  const spacing = 240 / size;
  const first = -120 + spacing / 2;
  return {
    type: 'volume',
    shape: [size, size, size],
    dtype: 'uint8',
    data: labelSheppLogan(size),
    spacing: [spacing, spacing, spacing],
    origin: [first, first, first],
    unit: 'mm',
    labels: true,
    label_names: SHEPP_LOGAN_LABEL_NAMES,
    label_colors: { 1: '#e8dcc4', 2: '#d98c8c' },
  };
}

export const specimens: SpecimenDeclaration[] = [
  {
    id: 'gaussian-blobs',
    function: 'gaussian_blobs',
    display_name: 'Gaussian blobs',
    description: 'A float32 density volume made of overlapping 3D Gaussians.',
    tags: ['volume', 'float32', 'density'],
    thumbnail: './thumbnails/gaussian-blobs.png',
    story:
      'Blur a handful of point sources and you get something that looks like many real measurements: a cryo-EM density map, a stack of fluorescent cells, ' +
      'the dark-matter halos of a cosmology run. Each blob is a three-dimensional bell curve, and where two overlap their densities simply add. Change ' +
      'the seed to scatter a new cluster, or shrink the width until every blob stands alone.',
  },
  {
    id: 'gyroid-field',
    function: 'gyroid_field',
    display_name: 'Gyroid field',
    description: 'The scalar field whose zero level is the gyroid minimal surface.',
    tags: ['volume', 'float32', 'minimal surface', 'materials'],
    thumbnail: './thumbnails/gyroid-field.png',
    story:
      'Alan Schoen found the gyroid at NASA in 1970: a surface that divides space into two interlocking, identical labyrinths without ever intersecting ' +
      'itself. This volume holds the trigonometric field whose zero level traces that surface. Butterflies grow gyroid-shaped chitin in their wing scales ' +
      'to make structural colour, and engineers print gyroid lattices for light, stiff parts. Sweep a threshold through the volume and watch the two ' +
      'labyrinths trade places.',
  },
  {
    id: 'shepp-logan-phantom',
    function: 'shepp_logan_phantom',
    display_name: 'Shepp-Logan head phantom',
    description: 'The classic CT test object in 3D: 12-bit integers on a 240 mm field of view.',
    tags: ['volume', 'uint16', 'medical', 'tomography'],
    thumbnail: './thumbnails/shepp-logan-phantom.png',
    story:
      'In 1974 Larry Shepp and Benjamin Logan needed a head they could scan perfectly and often, so they built one out of ellipses. A bright skull ' +
      'encloses the brain, two dark ventricles and a few small tumours; in 3D the ellipses become ellipsoids. Every new reconstruction algorithm in ' +
      'tomography is still tried on this phantom first. Scroll through the slices: the faint spots near the bottom are there to test how well fine, ' +
      'low-contrast detail survives.',
  },
  {
    id: 'shepp-logan-segmentation',
    function: 'shepp_logan_segmentation',
    display_name: 'Shepp-Logan segmentation',
    description: 'The phantom labelled: skull, brain, ventricles and lesions, each a named segment.',
    tags: ['volume', 'labels', 'segmentation', 'medical'],
    thumbnail: './thumbnails/shepp-logan-segmentation.png',
    story:
      'A segmentation says, for every voxel of a scan, what it belongs to. This one is the ground truth of the Shepp-Logan phantom: each voxel carries ' +
      'the id of the innermost ellipsoid that holds it, so skull, brain, both ventricles and the lesions are segments of their own, with names. Open it ' +
      'beside the phantom and it lies on it voxel for voxel; ask for one segment (segment=3 is the right ventricle) and the host sends its surface as a ' +
      'mesh, in millimetres, ready for a headset or a 3D printer.',
  },
];
