/**
 * @module camera
 * An orbit camera that frames a bounding sphere: rotate world points into view space and
 * project them orthographically onto a square canvas.
 */
import { applyAffine } from '../annotations/layer-frame.ts';
import { boundsOf } from '../geometry/cluster-mesh.ts';
import { supersampling } from './canvas.ts';

/** A view of the scene: where the object sits and how it is turned. */
export interface Camera {
  centre: [number, number, number];
  /** Half the visible width, in world units. */
  halfExtent: number;
  /** Turn around the vertical axis, radians. */
  yaw: number;
  /** Tilt towards the viewer, radians (positive looks down on the object). */
  pitch: number;
  /** Canvas size in pixels. */
  size: number;
}

/**
 * The supersampled side a render draws at (up to `wanted` times `size`) and its camera: `frame`
 * (shared with other layers) at that side, or one framed to fit `positions`.
 */
export function renderCamera(
  positions: Float32Array, size: number, wanted: number, look: { yaw?: number; pitch?: number }, frame?: Camera, margin?: number,
): { factor: number; full: number; camera: Camera } {
  const factor = supersampling(size, wanted);
  const full = size * factor;
  return { factor, full, camera: frame ? { ...frame, size: full } : frameCamera(positions, full, look.yaw, look.pitch, margin) };
}

/** Frames the points of `positions` (flat x,y,z) with a margin, seen from the given angles. */
function frameCamera(positions: Float32Array, size: number, yaw = 0.6, pitch = 0.45, margin = 1.12): Camera {
  const { min, max } = boundsOf(positions);
  const centre: [number, number, number] = [(min[0] + max[0]) / 2, (min[1] + max[1]) / 2, (min[2] + max[2]) / 2];
  const radius = Math.hypot(max[0] - min[0], max[1] - min[1], max[2] - min[2]) / 2 || 1;
  return { centre, halfExtent: radius * margin, yaw, pitch, size };
}

/**
 * World point → [screen x, screen y, depth] (depth grows away from the viewer).
 * View space: x right, y up, z towards the viewer.
 */
export function project(camera: Camera, x: number, y: number, z: number, out: Float64Array): void {
  const [vx, vy, vz] = toView(camera, x - camera.centre[0], y - camera.centre[1], z - camera.centre[2]);
  const scale = camera.size / (2 * camera.halfExtent);
  out[0] = camera.size / 2 + vx * scale;
  out[1] = camera.size / 2 - vy * scale;
  out[2] = -vz;
}

/** Where room point `p`, placed by `affine` when given, falls on the canvas: [screen x, screen y]. */
export function onScreen(camera: Camera, p: readonly [number, number, number], affine?: readonly number[]): [number, number] {
  const [x, y, z] = affine ? applyAffine(affine, p) : p;
  const out = new Float64Array(3);
  project(camera, x, y, z, out);
  return [out[0]!, out[1]!];
}

/** Rotates a direction from world into view space (yaw about y, then pitch about x). */
export function toView(camera: Camera, x: number, y: number, z: number): [number, number, number] {
  const cy = Math.cos(camera.yaw), sy = Math.sin(camera.yaw);
  const x1 = cy * x - sy * z;
  const z1 = sy * x + cy * z;
  const cp = Math.cos(camera.pitch), sp = Math.sin(camera.pitch);
  return [x1, cp * y - sp * z1, sp * y + cp * z1];
}

/** Rotates a direction from view space back into world space (the inverse of {@link toView}). */
export function fromView(camera: Camera, x: number, y: number, z: number): [number, number, number] {
  const cp = Math.cos(camera.pitch), sp = Math.sin(camera.pitch);
  const y1 = cp * y + sp * z;
  const z1 = -sp * y + cp * z;
  const cy = Math.cos(camera.yaw), sy = Math.sin(camera.yaw);
  return [cy * x + sy * z1, y1, -sy * x + cy * z1];
}
