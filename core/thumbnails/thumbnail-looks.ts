/**
 * @module thumbnail-looks
 * How each example specimen is shown in its thumbnail: material colours, view angles and
 * colour maps. Specimens not listed get the defaults.
 */
import type { MeshLook } from './render-mesh.ts';
import type { PointLook } from './render-points.ts';
import type { VolumeLook } from './render-volume.ts';

/** Per-kind looks for one specimen. */
export interface Look {
  mesh?: MeshLook;
  volume?: VolumeLook;
  points?: PointLook;
}

export const DEFAULT_LOOK: Required<Look> = {
  mesh: { colour: [0.85, 0.55, 0.3] },
  volume: { mode: 'mip', colormap: 'inferno' },
  points: {},
};

/** Looks by specimen id. */
export const LOOKS: Record<string, Look> = {
  icosphere: { mesh: { colour: [0.35, 0.62, 0.9] } },
  torus: { mesh: { colour: [0.92, 0.58, 0.25], pitch: 0.7 } },
  'torus-knot': { mesh: { colour: [0.85, 0.3, 0.4], pitch: 1.2, yaw: 0.2 } },
  supershape: { mesh: { colour: [0.55, 0.82, 0.45], pitch: 0.5 } },
  'gaussian-blobs': { volume: { mode: 'mip', colormap: 'inferno', gamma: 0.8 } },
  'gyroid-field': { volume: { mode: 'composite', colormap: 'viridis', threshold: 0.72 } },
  'dividing-cells': { volume: { mode: 'mip', colormap: 'viridis', gamma: 0.7 } },
  'swirling-flow': { volume: { mode: 'mip', colormap: 'inferno', gamma: 0.8 } },
  'shepp-logan-phantom': { volume: { mode: 'slice', colormap: 'bone', gamma: 0.6 } },
  metaballs: { mesh: { colour: [0.3, 0.75, 0.8] } },
  'gyroid-sheet': { mesh: { colour: [0.9, 0.72, 0.35], yaw: 0.65, pitch: 0.55 } },
  'lorenz-attractor': { points: { yaw: 0.1, pitch: 0.15 } },
  'thomas-attractor': { points: { yaw: 0.785, pitch: 0.6155 } },
  'spiral-galaxy': { points: { yaw: 0.3, pitch: 1.0, exposure: 0.7 } },
};
