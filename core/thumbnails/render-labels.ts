/**
 * @module render-labels
 * Segmentation thumbnails: the central slice along the slowest axis, each voxel in its
 * label's colour (the result's own, else the categorical colour every view uses), the
 * background left to the backdrop. Nearest voxel, never blended: ids are categories.
 */
import type { VolumeResult } from 'vitrine';
import { labelColour } from '../wire/label-colors.ts';
import { createBackdrop, type Canvas } from './canvas.ts';

/** Each label's colour (0..1 RGB): the volume's own, else the categorical one; each worked out once. */
export function labelColours(volume: Pick<VolumeResult, 'label_colors'>): (id: number) => readonly number[] {
  const colours = new Map<number, readonly number[]>();
  return (id) => {
    let rgb = colours.get(id);
    if (!rgb) {
      rgb = (labelColour(id, { resultColors: volume.label_colors }) ?? [0, 0, 0]).map((c) => c / 255);
      colours.set(id, rgb);
    }
    return rgb;
  };
}

/** Renders the central slice of a labels volume to a `size` × `size` canvas. */
export function renderLabels(volume: VolumeResult, size: number): Canvas {
  const [nz, ny, nx] = volume.shape.length === 3 ? (volume.shape as [number, number, number]) : [1, volume.shape.at(-2) ?? 1, volume.shape.at(-1) ?? 1];
  const z = Math.floor(nz / 2);
  const canvas = createBackdrop(size, size);
  const scale = Math.max(nx, ny) / (size * 0.9);
  const colourOf = labelColours(volume);
  for (let py = 0; py < size; py++) {
    for (let px = 0; px < size; px++) {
      const x = Math.floor((px + 0.5 - size / 2) * scale + nx / 2);
      const y = Math.floor((size / 2 - py - 0.5) * scale + ny / 2);
      if (x < 0 || y < 0 || x >= nx || y >= ny) continue;
      const id = volume.data[(z * ny + y) * nx + x]!;
      if (id === 0) continue;
      canvas.rgb.set(colourOf(id), (py * size + px) * 3);
    }
  }
  return canvas;
}
