/**
 * @module world-volume
 * A volume drawn in the room's frame, for a picture of several layers: each pixel's ray (of a
 * camera shared with the other layers) is carried into the volume's voxel coordinates through
 * the inverse of its placement (its affine, then origin and spacing), clipped to the voxel box,
 * and marched there: a maximum-intensity projection through the colour map for an image, the
 * first labelled voxel in its label's colour for a segmentation. Pixels the volume does not
 * cover keep the backdrop.
 */
import type { VolumeResult } from 'vitrine';
import { invertAffine } from '../annotations/layer-frame.ts';
import { fromView, type Camera } from './camera.ts';
import { createBackdrop, type Canvas } from './canvas.ts';
import { sampleColormap, type ScalarColormap as ColormapName } from '../wire/colormaps.ts';
import { labelColours } from './render-labels.ts';
import { windowOf } from './render-volume.ts';
import { voxelGrid, type Vec3 } from './world-frame.ts';

/** How a volume is drawn (in rays or slices): an image through a map and window, or labels in their colours. */
export type WorldVolumeLook = { labels: true } | { labels?: false; colormap: ColormapName; window?: [number, number]; gamma?: number };

/** Samples per voxel along a ray (a little over one, so thin structures are not stepped over). */
const SAMPLES_PER_VOXEL = 1.25;

/** The map from room coordinates to continuous voxel indices (x, y, z), as a 3×4 row-major matrix. */
export function roomToVoxel(volume: VolumeResult, affine: readonly number[] | undefined): number[] {
  const { spacing, origin } = voxelGrid(volume);
  const inverse = affine ? (invertAffine(affine) ?? IDENTITY) : IDENTITY;
  // voxel_k = (physical_k - origin_k) / spacing_k, with physical = inverse · room; axes x, y, z are C order's 2, 1, 0.
  const rows: number[] = [];
  for (const [row, k] of [[0, 2], [1, 1], [2, 0]] as const) {
    for (let c = 0; c < 4; c++) rows.push((inverse[row * 4 + c]! - (c === 3 ? origin[k] : 0)) / spacing[k]);
  }
  return rows;
}

const IDENTITY = [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1];

/** The ray's parameter range [t0, t1] inside the box [0, n - 1] on each axis, or null when it misses. */
function clip(start: Vec3, dir: Vec3, n: Vec3, length: number): [number, number] | null {
  let t0 = 0, t1 = length;
  for (let k = 0; k < 3; k++) {
    if (Math.abs(dir[k]!) < 1e-12) {
      if (start[k]! < 0 || start[k]! > n[k]! - 1) return null;
      continue;
    }
    let a = (0 - start[k]!) / dir[k]!, b = (n[k]! - 1 - start[k]!) / dir[k]!;
    if (a > b) [a, b] = [b, a];
    t0 = Math.max(t0, a);
    t1 = Math.min(t1, b);
  }
  return t0 <= t1 ? [t0, t1] : null;
}

/** Draws `volume`, placed by `affine`, as `camera` sees it. */
export function renderVolumeInWorld(volume: VolumeResult, camera: Camera, affine: readonly number[] | undefined, look: WorldVolumeLook): Canvas {
  const size = camera.size;
  const { shape } = voxelGrid(volume);
  const [nz, ny, nx] = shape;
  const n: Vec3 = [nx, ny, nz];
  const data = volume.data;
  const m = roomToVoxel(volume, affine);
  const toVoxel = (p: Vec3, w: number): Vec3 =>
    [0, 1, 2].map((r) => m[r * 4]! * p[0] + m[r * 4 + 1]! * p[1] + m[r * 4 + 2]! * p[2] + m[r * 4 + 3]! * w) as Vec3;
  const dirWorld = fromView(camera, 0, 0, -1);
  const dir = toVoxel(dirWorld, 0);
  const voxelsPerUnit = Math.hypot(...dir) || 1;
  const length = 2 * camera.halfExtent;
  const step = 1 / (voxelsPerUnit * SAMPLES_PER_VOXEL);
  const [min, range] = look.labels ? [0, 1] : windowOf(data, look.window);
  const canvas = createBackdrop(size, size);
  const colour = new Float64Array(3);
  const at = (x: number, y: number, z: number): number => data[(z * ny + y) * nx + x]!;
  const labelColour = labelColours(volume);
  for (let py = 0; py < size; py++) {
    for (let px = 0; px < size; px++) {
      const vx = ((px + 0.5) / size - 0.5) * length;
      const vy = (0.5 - (py + 0.5) / size) * length;
      const off = fromView(camera, vx, vy, camera.halfExtent);
      const start = toVoxel([camera.centre[0] + off[0], camera.centre[1] + off[1], camera.centre[2] + off[2]], 1);
      const span = clip(start, dir, n, length);
      if (!span) continue;
      const i = (py * size + px) * 3;
      if (look.labels) {
        for (let t = span[0]; t <= span[1]; t += step) {
          const id = at(Math.round(start[0] + dir[0] * t), Math.round(start[1] + dir[1] * t), Math.round(start[2] + dir[2] * t));
          if (id === 0) continue;
          canvas.rgb.set(labelColour(id), i);
          break;
        }
        continue;
      }
      let best = -Infinity;
      for (let t = span[0]; t <= span[1]; t += step) {
        const v = at(Math.round(start[0] + dir[0] * t), Math.round(start[1] + dir[1] * t), Math.round(start[2] + dir[2] * t));
        if (v > best) best = v;
      }
      const value = Math.min(1, Math.max(0, (best - min) / range));
      sampleColormap(look.colormap, value ** (look.gamma ?? 1), colour);
      const alpha = Math.min(1, 0.35 + value * 1.5);
      for (let k = 0; k < 3; k++) canvas.rgb[i + k] = canvas.rgb[i + k]! * (1 - alpha) + colour[k]! * alpha;
    }
  }
  return canvas;
}
