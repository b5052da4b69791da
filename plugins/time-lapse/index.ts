/**
 * @module time-lapse
 * Volumes with time and channels: a two-channel time-lapse of dividing cells (nuclei and
 * membranes, as a microscope records them) and a vector field that changes over time. The
 * host serves them one 3-D step at a time; the viewer plays them.
 */
import type { Integer, SpecimenDeclaration, VolumeResult } from 'vitrine';
import { addBlob, type Blob } from './blobs.ts';
import { cellsAt, placeCells } from './cells.ts';
import { flowStep } from './flow.ts';

/** A small integer hash of a sample's index as a float in [0, 1): camera noise no seed repeats. */
function noise(i: number): number {
  let h = Math.imul(i ^ 0x9e3779b9, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  return ((h ^ (h >>> 16)) >>> 0) / 4294967296;
}

/**
 * A two-channel time-lapse of cells dividing, as a confocal microscope records it: nuclei
 * (channel 0) split into two and move apart, each cell's membrane (channel 1) pinches in
 * between them. uint16 counts over a dim, noisy background; `tczyx` with 0.5 µm voxels and a
 * step every 5 minutes.
 *
 * @param size Samples along each spatial axis.
 * @param steps Time steps.
 * @param cells Cells in the field of view.
 * @param seed Random seed: the same seed gives the same time-lapse.
 * @minimum size 16
 * @maximum size 96
 * @minimum steps 2
 * @maximum steps 40
 * @minimum cells 1
 * @maximum cells 8
 * @minimum seed 0
 * @maximum seed 1000000
 */
export function dividing_cells(size: Integer = 64, steps: Integer = 20, cells: Integer = 3, seed: Integer = 11): VolumeResult {
  const voxels = size * size * size;
  const data = new Uint16Array(steps * 2 * voxels);
  const field = new Float32Array(voxels);
  const placed = placeCells(cells, seed);
  for (let t = 0; t < steps; t++) {
    const blobs = cellsAt(placed, steps > 1 ? t / (steps - 1) : 0);
    for (let c = 0; c < 2; c++) {
      field.fill(0);
      for (const blob of blobs) {
        const parts: Blob[] = c === 0 ? [blob.nucleus] : blob.membrane;
        for (const part of parts) addBlob(field, size, part);
      }
      const base = (t * 2 + c) * voxels;
      for (let i = 0; i < voxels; i++) {
        const signal = Math.max(0, field[i]!) * (c === 0 ? 3200 : 2400);
        data[base + i] = Math.round(180 + signal + 140 * noise(base + i));
      }
    }
  }
  const step = 0.5;
  const half = (size * step) / 2;
  return {
    type: 'volume',
    axes: 'tczyx',
    shape: [steps, 2, size, size, size],
    dtype: 'uint16',
    data,
    spacing: [step, step, step],
    origin: [-half, -half, -half],
    unit: 'micrometer',
    time_step: 5,
    time_unit: 'minute',
    channels: [
      { name: 'nuclei (H2B-GFP)', color: '#00ff00' },
      { name: 'membrane (mCherry)', color: '#ff00ff' },
    ],
  };
}

/**
 * A swirling flow over time: two vortices circle each other in a flat box while a wave of
 * updraft travels up through it. Three float32 components per voxel (`vector: true`), `tczyx`;
 * the viewer shows its magnitude, one component, or its direction as colour.
 *
 * @param size Samples along x and y.
 * @param depth Samples along z.
 * @param steps Time steps.
 * @minimum size 8
 * @maximum size 64
 * @minimum depth 4
 * @maximum depth 32
 * @minimum steps 2
 * @maximum steps 60
 */
export function swirling_flow(size: Integer = 48, depth: Integer = 16, steps: Integer = 40): VolumeResult {
  const voxels = size * size * depth;
  const data = new Float32Array(steps * 3 * voxels);
  for (let t = 0; t < steps; t++) flowStep(data.subarray(t * 3 * voxels, (t + 1) * 3 * voxels), size, depth, t / steps);
  return {
    type: 'volume',
    axes: 'tczyx',
    shape: [steps, 3, depth, size, size],
    dtype: 'float32',
    data,
    spacing: [2, 1, 1],
    origin: [0, 0, 0],
    unit: 'millimeter',
    time_step: 0.05,
    time_unit: 'second',
    vector: true,
    channels: [{ name: 'vx', color: '#ff0000' }, { name: 'vy', color: '#00ff00' }, { name: 'vz', color: '#0000ff' }],
  };
}

export const specimens: SpecimenDeclaration[] = [
  {
    id: 'dividing-cells',
    function: 'dividing_cells',
    display_name: 'Dividing cells (time-lapse)',
    description: 'A two-channel confocal time-lapse: nuclei and membranes of cells dividing, 20 steps.',
    tags: ['volume', 'time-lapse', 'channels', 'microscopy', 'uint16'],
    thumbnail: './thumbnails/dividing-cells.png',
    story:
      'Film a living embryo under a confocal microscope and you get a stack of images per colour per minute: five dimensions of data. Here a few cells ' +
      'divide. The green channel is the DNA, labelled with a histone fused to GFP; it condenses, splits in two and the halves move apart. The magenta ' +
      'channel outlines each cell membrane, which pinches in between the new nuclei until two cells stand where one was. Play it, or step through it; ' +
      'switch a channel off to follow the other.',
  },
  {
    id: 'swirling-flow',
    function: 'swirling_flow',
    display_name: 'Swirling flow (vector field)',
    description: 'Two vortices circling each other over 40 steps: a float32 vector field with three components.',
    tags: ['volume', 'time-lapse', 'vector field', 'simulation', 'float32'],
    thumbnail: './thumbnails/swirling-flow.png',
    story:
      'A simulation of a fluid writes a velocity at every point of its grid, once per time step: three numbers per voxel, for as many steps as it ran. ' +
      'Two whirlpools turn around each other here while a pulse of rising fluid travels up through the box. Look at the speed alone (the magnitude), at ' +
      'one component, or at the direction as colour: red, green and blue for flow along x, y and z, grey where the fluid is still.',
  },
];
