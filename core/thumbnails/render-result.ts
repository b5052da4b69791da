/**
 * @module render-result
 * Draws any result with the small software renderers of this folder, picking the renderer
 * from its shape: a mesh, a volume (a segmentation's labels apart), a point cloud or an image.
 * Thumbnails draw through here, each example specimen with its own look (material colours,
 * view angles and colour maps; specimens not listed get the defaults); a room's picture takes
 * its `stepOf` (scene-picture.ts).
 */
import type { SpecimenResult, VolumeResult } from 'vitrine';
import { selectStep } from '../delivery/select-step.ts';
import type { StoredVolume } from '../results/stored-result.ts';
import { hasSteps, stepLayout } from '../results/volume-axes.ts';
import type { Canvas } from './canvas.ts';
import { renderImage } from './render-image.ts';
import { renderLabels } from './render-labels.ts';
import { renderMesh, type MeshLook } from './render-mesh.ts';
import { renderPoints, type PointLook } from './render-points.ts';
import { renderVolume, type VolumeLook } from './render-volume.ts';

/** Per-kind looks for one specimen. */
export interface Look {
  mesh?: MeshLook;
  volume?: VolumeLook;
  points?: PointLook;
}

const DEFAULT_LOOK: Required<Look> = {
  mesh: { colour: [0.85, 0.55, 0.3] },
  volume: { mode: 'mip', colormap: 'inferno' },
  points: {},
};

/** Looks by specimen id. */
const LOOKS: Record<string, Look> = {
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

/**
 * A volume with time or channels is drawn as one 3-D step: step `t` (absent: the middle one,
 * or out of range: the nearest), first channel (a vector field's magnitude).
 */
export function stepOf(volume: VolumeResult, t?: number): VolumeResult {
  if (!hasSteps(volume)) return volume;
  const { steps } = stepLayout(volume);
  const stored = { ...volume, type: 'volume' } as StoredVolume;
  const step = t === undefined ? Math.floor(steps / 2) : Math.min(steps - 1, Math.max(0, Math.floor(t)));
  return selectStep(stored, { t: step, c: volume.vector ? 'magnitude' : 0 }).step;
}

/** Draws `result` on a `size` × `size` canvas with `look` (each kind's part of it, else the default). */
export function renderLooked(result: SpecimenResult, size: number, look: Look): Canvas {
  if ('vertices' in result) return renderMesh(result, size, look.mesh ?? DEFAULT_LOOK.mesh);
  if ('shape' in result) return result.labels ? renderLabels(stepOf(result), size) : renderVolume(stepOf(result), size, look.volume ?? DEFAULT_LOOK.volume);
  if ('points' in result) return renderPoints(result, size, look.points ?? DEFAULT_LOOK.points);
  return renderImage(result, size);
}

/** Draws the thumbnail of specimen `id` (its look from LOOKS), `size` pixels square. */
export function renderResult(id: string, result: SpecimenResult, size = 256): Canvas {
  return renderLooked(result, size, { ...DEFAULT_LOOK, ...LOOKS[id] });
}
