/**
 * @module render-volume
 * Volume thumbnails: a maximum-intensity projection ray-marched through the turned volume
 * box, or the central slice along the slowest axis, coloured by a colour map.
 */
import type { VolumeResult } from 'vitrine';
import { fromView, type Camera } from './camera.ts';
import { createBackdrop, type Canvas } from './canvas.ts';
import { sampleColormap, type ScalarColormap as ColormapName } from '../wire/colormaps.ts';

/** How to show a volume. */
export interface VolumeLook {
  /** Maximum-intensity projection, front-to-back compositing above `threshold`, or the central slice. */
  mode: 'mip' | 'composite' | 'slice';
  /** For `composite`: normalised values below this are transparent. */
  threshold?: number;
  colormap: ColormapName;
  /** Applied to the normalised value before colouring (< 1 brightens faint structure). */
  gamma?: number;
  /** The values the colour map spans (a room's window); absent: the data's own range. */
  window?: [number, number];
  /** View angles of the projection (radians, as the camera's); absent: a three-quarter view. */
  yaw?: number;
  pitch?: number;
}

/** The values a colour map spans, as [low, high - low]: `window` when given, else the data's own range. */
export function windowOf(data: ArrayLike<number>, window?: [number, number]): [number, number] {
  let min = Infinity, max = -Infinity;
  if (window) [min, max] = window;
  else {
    for (let i = 0; i < data.length; i++) {
      const v = data[i]!;
      if (v < min) min = v;
      if (v > max) max = v;
    }
  }
  return [min, max - min || 1];
}

/** Renders `volume` to a `size` × `size` canvas. */
export function renderVolume(volume: VolumeResult, size: number, look: VolumeLook): Canvas {
  const [nz, ny, nx] = volume.shape as [number, number, number];
  const data = volume.data;
  const [min, range] = windowOf(data, look.window);
  const at = (x: number, y: number, z: number): number => (data[(z * ny + y) * nx + x]! - min) / range;
  const trilinear = (fx: number, fy: number, fz: number): number => {
    const x = Math.min(nx - 2, Math.floor(fx)), y = Math.min(ny - 2, Math.floor(fy)), z = Math.min(nz - 2, Math.floor(fz));
    const tx = fx - x, ty = fy - y, tz = fz - z;
    const lerp = (a: number, b: number, t: number): number => a + (b - a) * t;
    const plane = (zz: number): number =>
      lerp(lerp(at(x, y, zz), at(x + 1, y, zz), tx), lerp(at(x, y + 1, zz), at(x + 1, y + 1, zz), tx), ty);
    return lerp(plane(z), plane(z + 1), tz);
  };
  const canvas = createBackdrop(size, size);
  const colour = new Float64Array(3);
  const gamma = look.gamma ?? 1;
  const put = (px: number, py: number, t: number, alpha: number): void => {
    sampleColormap(look.colormap, t ** gamma, colour);
    const i = (py * size + px) * 3;
    for (let k = 0; k < 3; k++) canvas.rgb[i + k] = canvas.rgb[i + k]! * (1 - alpha) + colour[k]! * alpha;
  };
  if (look.mode === 'slice') {
    const z = Math.floor(nz / 2);
    const scale = Math.max(nx, ny) / (size * 0.9);
    for (let py = 0; py < size; py++) {
      for (let px = 0; px < size; px++) {
        // Bilinear between voxel centres.
        const fx = (px + 0.5 - size / 2) * scale + nx / 2 - 0.5;
        const fy = (size / 2 - py - 0.5) * scale + ny / 2 - 0.5;
        if (fx < -0.5 || fy < -0.5 || fx > nx - 0.5 || fy > ny - 0.5) continue;
        const x = Math.min(nx - 2, Math.max(0, Math.floor(fx))), y = Math.min(ny - 2, Math.max(0, Math.floor(fy)));
        const tx = Math.min(1, Math.max(0, fx - x)), ty = Math.min(1, Math.max(0, fy - y));
        const top = at(x, y + 1, z) * (1 - tx) + at(x + 1, y + 1, z) * tx;
        const bottom = at(x, y, z) * (1 - tx) + at(x + 1, y, z) * tx;
        put(px, py, bottom * (1 - ty) + top * ty, 1);
      }
    }
    return canvas;
  }
  // MIP in voxel units: x along axis 2, y along axis 1, z along axis 0, centred on the box.
  const radius = Math.hypot(nx, ny, nz) / 2;
  const camera: Camera = { centre: [0, 0, 0], halfExtent: radius * 1.05, yaw: look.yaw ?? 0.55, pitch: look.pitch ?? 0.4, size };
  const dir = fromView(camera, 0, 0, -1);
  const stepCount = Math.ceil(radius * 2 * 1.5);
  const step = (radius * 2) / stepCount;
  for (let py = 0; py < size; py++) {
    for (let px = 0; px < size; px++) {
      const vx = ((px + 0.5) / size - 0.5) * 2 * camera.halfExtent;
      const vy = (0.5 - (py + 0.5) / size) * 2 * camera.halfExtent;
      const start = fromView(camera, vx, vy, radius);
      let best = -1;
      const composite = look.mode === 'composite';
      const threshold = look.threshold ?? 0.5;
      const accumulated = [0, 0, 0];
      let transmittance = 1;
      for (let s = 0; s < stepCount && transmittance > 0.01; s++) {
        const fx = start[0] + dir[0] * s * step + nx / 2 - 0.5;
        const fy = start[1] + dir[1] * s * step + ny / 2 - 0.5;
        const fz = start[2] + dir[2] * s * step + nz / 2 - 0.5;
        if (fx < 0 || fy < 0 || fz < 0 || fx > nx - 1 || fy > ny - 1 || fz > nz - 1) continue;
        const v = trilinear(fx, fy, fz);
        if (v > best) best = v;
        if (composite && v > threshold) {
          const t = (v - threshold) / (1 - threshold);
          const alpha = Math.min(1, 0.25 * step * (0.3 + t));
          sampleColormap(look.colormap, 0.25 + 0.75 * t ** gamma, colour);
          for (let k = 0; k < 3; k++) accumulated[k]! += transmittance * alpha * colour[k]!;
          transmittance *= 1 - alpha;
        }
      }
      if (composite) {
        const i = (py * size + px) * 3;
        for (let k = 0; k < 3; k++) canvas.rgb[i + k] = canvas.rgb[i + k]! * transmittance + accumulated[k]!;
      } else if (best >= 0) {
        put(px, py, best, Math.min(1, 0.35 + best * 1.5));
      }
    }
  }
  return canvas;
}
