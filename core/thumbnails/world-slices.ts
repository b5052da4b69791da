/**
 * @module world-slices
 * A volume as the page opens it: three orthogonal slices through its middle voxel (one across
 * each axis), drawn in the room's frame as a shared camera sees them, the nearest slice in
 * front. Each pixel's ray is carried into voxel coordinates (world-volume.ts) and met with the
 * three planes; the voxel hit is coloured as the page colours it: an image through its colour
 * map over its window (the page's opening window, window-level.ts, unless the layer or room
 * gives one), values under the page's see-through floor letting the ray pass on; a
 * segmentation in its labels' colours, background passing. Nearest voxel, as the page's slices.
 */
import type { VolumeResult } from 'vitrine';
import { sampleColormap } from '../wire/colormaps.ts';
import { defaultWindow } from '../wire/window-level.ts';
import { valueRange } from '../envelope/value-range.ts';
import { fromView, type Camera } from './camera.ts';
import { createBackdrop, type Canvas } from './canvas.ts';
import { labelColours } from './render-labels.ts';
import { voxelGrid, type Vec3 } from './world-frame.ts';
import { roomToVoxel, type WorldVolumeLook } from './world-volume.ts';

/** A voxel's colour (written to `out`), or false when it is see-through, for `look`. */
function colourer(volume: VolumeResult, look: WorldVolumeLook): (value: number, out: Float64Array) => boolean {
  if (look.labels) {
    const colourOf = labelColours(volume);
    return (id, out) => {
      if (id === 0) return false;
      out.set(colourOf(id));
      return true;
    };
  }
  // The finite range of the data, [0, 1] when it has none.
  const [min, max] = valueRange(volume.data) ?? [0, 1];
  const opening = defaultWindow(volume.data, min, max);
  // The floor is a share of the colour map, fixed when the page opens the volume; a window given later keeps it.
  const floor = Math.max(3, Math.min(255, Math.round(((opening.floor - opening.low) / (opening.high - opening.low || 1)) * 255)));
  const [low, high] = look.window ?? [opening.low, opening.high];
  const gamma = look.gamma ?? 1;
  return (value, out) => {
    const t = Math.max(0, Math.min(1, (value - low) / (high - low || 1)));
    const index = Math.round((gamma === 1 ? t : t ** gamma) * 255);
    if (index < floor) return false;
    sampleColormap(look.colormap, index / 255, out);
    return true;
  };
}

/** Draws `volume`'s three middle slices, placed by `affine`, as `camera` sees them. */
export function renderSlicesInWorld(volume: VolumeResult, camera: Camera, affine: readonly number[] | undefined, look: WorldVolumeLook): Canvas {
  const size = camera.size;
  const [nz, ny, nx] = voxelGrid(volume).shape;
  const n: Vec3 = [nx, ny, nz];
  const middle: Vec3 = [Math.floor(nx / 2), Math.floor(ny / 2), Math.floor(nz / 2)];
  const m = roomToVoxel(volume, affine);
  const world = fromView(camera, 0, 0, -1);
  const dir = [0, 1, 2].map((r) => m[r * 4]! * world[0] + m[r * 4 + 1]! * world[1] + m[r * 4 + 2]! * world[2]) as Vec3;
  const length = 2 * camera.halfExtent;
  const colour = colourer(volume, look);
  const canvas: Canvas = { ...createBackdrop(size, size), depth: new Float32Array(size * size).fill(Infinity) };
  const rgb = new Float64Array(3);
  const data = volume.data;
  // Voxel centres sit at whole coordinates: a slice's voxels reach half a voxel either side.
  const within = (v: number, k: number): boolean => v >= -0.5 && v < n[k]! - 0.5;
  const nearest = (v: number, k: number): number => Math.min(n[k]! - 1, Math.max(0, Math.round(v)));
  const start = [0, 0, 0];
  const hitT = [0, 0, 0];
  const hitValue = [0, 0, 0];
  for (let py = 0; py < size; py++) {
    for (let px = 0; px < size; px++) {
      const vx = ((px + 0.5) / size - 0.5) * length;
      const vy = (0.5 - (py + 0.5) / size) * length;
      const off = fromView(camera, vx, vy, camera.halfExtent);
      const p = [camera.centre[0] + off[0], camera.centre[1] + off[1], camera.centre[2] + off[2]];
      for (let r = 0; r < 3; r++) start[r] = m[r * 4]! * p[0]! + m[r * 4 + 1]! * p[1]! + m[r * 4 + 2]! * p[2]! + m[r * 4 + 3]!;
      let hits = 0;
      for (let axis = 0; axis < 3; axis++) {
        if (Math.abs(dir[axis]!) < 1e-12) continue;
        const t = (middle[axis]! - start[axis]!) / dir[axis]!;
        if (t < 0 || t > length) continue;
        const [x, y, z] = [start[0]! + dir[0] * t, start[1]! + dir[1] * t, start[2]! + dir[2] * t];
        if ((axis !== 0 && !within(x, 0)) || (axis !== 1 && !within(y, 1)) || (axis !== 2 && !within(z, 2))) continue;
        const [ix, iy, iz] = [axis === 0 ? middle[0] : nearest(x, 0), axis === 1 ? middle[1] : nearest(y, 1), axis === 2 ? middle[2] : nearest(z, 2)];
        // Kept in order of distance: at most three, so an insertion is enough.
        let at = hits++;
        while (at > 0 && hitT[at - 1]! > t) {
          hitT[at] = hitT[at - 1]!;
          hitValue[at] = hitValue[at - 1]!;
          at--;
        }
        hitT[at] = t;
        hitValue[at] = data[(iz * ny + iy) * nx + ix]!;
      }
      // The nearest slice that shows something there; see-through voxels let the ray on to the next.
      for (let k = 0; k < hits; k++) {
        if (!colour(hitValue[k]!, rgb)) continue;
        canvas.rgb.set(rgb, (py * size + px) * 3);
        // The ray set out from the camera's near plane, half the extent in front of its centre.
        canvas.depth![py * size + px] = hitT[k]! - camera.halfExtent;
        break;
      }
    }
  }
  return canvas;
}
