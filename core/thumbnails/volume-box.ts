/**
 * @module volume-box
 * The edges of a volume's box, as the page draws them around its slices or its ray-marched
 * view: the twelve edges of its voxel box, placed by the layer's affine, one pixel wide.
 */
import type { VolumeResult } from 'vitrine';
import { hexRgb, VOLUME_BOX_COLOUR } from '../wire/layer-defaults.ts';
import { onScreen, type Camera } from './camera.ts';
import type { Canvas } from './canvas.ts';
import { drawLine, type Rgb } from './canvas-draw.ts';
import { volumeCorners } from './world-frame.ts';

const BOX_RGB = hexRgb(VOLUME_BOX_COLOUR)! as Rgb;

/** Draws `volume`'s box edges, placed by `affine`, on `canvas` as `camera` sees them. */
export function drawVolumeBox(canvas: Canvas, volume: VolumeResult, affine: readonly number[] | undefined, camera: Camera): void {
  // Corners run x fastest, then y, then z: corners one bit apart share an edge.
  const screen = volumeCorners(volume).map((corner) => onScreen(camera, corner, affine));
  for (let i = 0; i < 8; i++) {
    for (const bit of [1, 2, 4]) if (!(i & bit)) drawLine(canvas, screen[i]!, screen[i | bit]!, BOX_RGB, 1);
  }
}
