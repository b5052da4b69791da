/**
 * @module render-points
 * Point-cloud thumbnails: every point is splatted additively with its own colour (or its
 * scalar through a colour map), then tone-mapped so dense regions glow instead of clipping.
 */
import type { PointCloudResult } from 'vitrine';
import { project, renderCamera, type Camera } from './camera.ts';
import { createBackdrop, downsample, type Canvas } from './canvas.ts';
import { windowOf } from './render-volume.ts';
import { sampleColormap, type ScalarColormap as ColormapName } from '../wire/colormaps.ts';

/** View angles and splat brightness. */
export interface PointLook {
  yaw?: number;
  pitch?: number;
  /** Brightness per point; scale down for millions of points. */
  exposure?: number;
  /** The map scalars are coloured by (inferno when absent). */
  colormap?: ColormapName;
}

const SUPERSAMPLE = 2;

/** Renders `cloud` to a `size` × `size` canvas: framed to fit, or as `frame` (a camera of that size) sees it. */
export function renderPoints(cloud: PointCloudResult, size: number, look: PointLook, frame?: Camera): Canvas {
  const { factor, full, camera } = renderCamera(cloud.points, size, SUPERSAMPLE, look, frame, 1.02);
  const light = new Float32Array(full * full * 3);
  const count = cloud.points.length / 3;
  const exposure = (look.exposure ?? 1) * Math.min(4, (full * full) / count);
  const p = new Float64Array(3);
  const colour = new Float64Array(3);
  const scalarRange: [number, number] = cloud.scalars && cloud.scalars.length > 0 ? windowOf(cloud.scalars) : [0, 1];
  for (let i = 0; i < count; i++) {
    project(camera, cloud.points[i * 3]!, cloud.points[i * 3 + 1]!, cloud.points[i * 3 + 2]!, p);
    const x = Math.floor(p[0]!), y = Math.floor(p[1]!);
    if (x < 0 || y < 0 || x >= full || y >= full) continue;
    pointColour(cloud, i, scalarRange, look.colormap ?? 'inferno', colour);
    const o = (y * full + x) * 3;
    for (let k = 0; k < 3; k++) light[o + k] = light[o + k]! + colour[k]! * exposure;
  }
  const canvas = createBackdrop(full, full);
  for (let i = 0; i < light.length; i += 3) {
    // Tone-map the brightness, not each channel, so dense regions keep their hue.
    const r = light[i]!, g = light[i + 1]!, b = light[i + 2]!;
    const luminance = 0.3 * r + 0.55 * g + 0.15 * b;
    if (luminance === 0) continue;
    const mapped = 1 - Math.exp(-luminance * 0.5);
    const k = mapped / luminance;
    const cover = Math.min(1, mapped * 1.5);
    for (let c = 0; c < 3; c++) canvas.rgb[i + c] = canvas.rgb[i + c]! * (1 - cover) + Math.min(1, light[i + c]! * k);
  }
  return downsample(canvas, factor);
}

function pointColour(cloud: PointCloudResult, i: number, [min, span]: [number, number], map: ColormapName, out: Float64Array): void {
  if (cloud.colors) {
    const scale = cloud.colors instanceof Uint8Array ? 1 / 255 : 1;
    for (let k = 0; k < 3; k++) out[k] = cloud.colors[i * 3 + k]! * scale;
  } else if (cloud.scalars) {
    sampleColormap(map, (cloud.scalars[i]! - min) / span, out);
  } else {
    out.fill(0.85);
  }
}
