/**
 * @module picture-camera
 * The camera a room's picture is drawn with, set as the page sets its own, so the subject
 * stands where the page shows it and a length spans as many pixels: the room's camera when it
 * has one (looking from its position at its target), else the page's framing of every layer's
 * box (its bounding sphere, seen from the page's opening direction at the distance that fits
 * it in the page's field of view). The page looks in perspective; the picture's renderers draw
 * orthographically, at the scale the perspective has at the target's depth: the depth the
 * page's scale bar measures at, so both bars read the same. The page's field of view spans
 * its height; a picture framed by the page's rule spans its shorter side with it, so a tall
 * picture still shows the whole subject (a room's camera spans the height, as on the page).
 */
import type { RoomView } from '../wire/room-types.ts';
import type { Camera } from './camera.ts';
import type { Vec3 } from './world-frame.ts';

/** The page camera's vertical field of view, radians. */
export const PAGE_FOV = (45 * Math.PI) / 180;

/** How far past the subject's sphere the page frames it. */
const FRAME_MARGIN = 1.15;

/** The page's opening direction, from the subject towards the camera. */
const FRAME_DIRECTION: Vec3 = [0.8, 0.55, 1];

/** A picture's camera: drawing `size` pixels square, of which the centre `width` × `height` is kept. */
export interface PictureCamera {
  camera: Camera;
  /** Physical units one pixel spans at the target's depth. */
  unitsPerPixel: number;
}

/** A direction as the renderers' angles: turn about the vertical, then tilt (looking down is positive). */
function anglesOf([dx, dy, dz]: readonly number[]): { yaw: number; pitch: number } {
  return { yaw: Math.atan2(dx!, dz!), pitch: Math.atan2(dy!, Math.hypot(dx!, dz!)) };
}

/** Where the camera looks from, how far from its target, and the target; null without a usable room camera. */
function roomPose(view: RoomView): { centre: Vec3; distance: number; direction: Vec3 } | null {
  const camera = view.camera;
  if (!camera) return null;
  const direction = [0, 1, 2].map((k) => camera.position[k]! - camera.target[k]!) as Vec3;
  const distance = Math.hypot(...direction);
  if (!(distance > 0) || !Number.isFinite(distance)) return null;
  return { centre: [...camera.target] as Vec3, distance, direction };
}

/** The page's framing of `boxes` (their joint box's bounding sphere), or null when there is none. */
function framedPose(boxes: readonly { min: Vec3; max: Vec3 }[]): { centre: Vec3; distance: number; direction: Vec3 } | null {
  if (boxes.length === 0) return null;
  const min = [0, 1, 2].map((k) => Math.min(...boxes.map((b) => b.min[k]!)));
  const max = [0, 1, 2].map((k) => Math.max(...boxes.map((b) => b.max[k]!)));
  const centre = [0, 1, 2].map((k) => (min[k]! + max[k]!) / 2) as Vec3;
  const radius = Math.max(Math.hypot(...[0, 1, 2].map((k) => max[k]! - min[k]!)) / 2, 1e-6);
  return { centre, distance: (radius / Math.sin(PAGE_FOV / 2)) * FRAME_MARGIN, direction: FRAME_DIRECTION };
}

/**
 * The camera for a `width` × `height` picture of what `boxes` bound (room coordinates) with
 * the room's `view`; null when there is nothing to frame and no room camera.
 */
export function pictureCamera(boxes: readonly { min: Vec3; max: Vec3 }[], view: RoomView, width: number, height: number): PictureCamera | null {
  const room = roomPose(view);
  const pose = room ?? framedPose(boxes);
  if (!pose) return null;
  const size = Math.max(width, height);
  const unitsPerPixel = (2 * pose.distance * Math.tan(PAGE_FOV / 2)) / (room ? height : Math.min(width, height));
  const camera: Camera = { centre: pose.centre, halfExtent: (unitsPerPixel * size) / 2, ...anglesOf(pose.direction), size };
  return { camera, unitsPerPixel };
}
