/**
 * @module render-result
 * Draws any result with the small software renderers of this folder, picking the renderer
 * from its shape: a mesh, a volume (a segmentation's labels apart), a point cloud or an image.
 * Thumbnails draw through here; a room's picture takes its `stepOf` (scene-picture.ts).
 */
import type { SpecimenResult, VolumeResult } from 'vitrine';
import { selectStep } from '../delivery/select-step.ts';
import type { StoredResult } from '../results/stored-result.ts';
import { hasSteps, stepLayout } from '../results/volume-axes.ts';
import type { Canvas } from './canvas.ts';
import { renderImage } from './render-image.ts';
import { renderLabels } from './render-labels.ts';
import { renderMesh } from './render-mesh.ts';
import { renderPoints } from './render-points.ts';
import { renderVolume } from './render-volume.ts';
import { DEFAULT_LOOK, LOOKS, type Look } from './thumbnail-looks.ts';

/**
 * A volume with time or channels is drawn as one 3-D step: step `t` (absent: the middle one,
 * or out of range: the nearest), first channel (a vector field's magnitude).
 */
export function stepOf(volume: VolumeResult, t?: number): VolumeResult {
  if (!hasSteps(volume)) return volume;
  const { steps } = stepLayout(volume);
  const stored = { ...volume, type: 'volume' } as StoredResult & { type: 'volume' };
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

/** Draws the thumbnail of specimen `id` (its look from thumbnail-looks.ts), `size` pixels square. */
export function renderResult(id: string, result: SpecimenResult, size = 256): Canvas {
  return renderLooked(result, size, { ...DEFAULT_LOOK, ...LOOKS[id] });
}
