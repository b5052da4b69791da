/**
 * @module xr-pose
 * A headset's own pose as the room sees it, read from the session's frame: its head (the
 * viewer), each tracked hand (its grip, or where it points when it has no grip) and its pointer
 * (the right hand's ray, else the other's), said in the room's frame (the content root's) like
 * a page's camera (page-pose.ts). The frame's reference space is the stage's world.
 */
import * as THREE from 'three';
import type { Placement, Pose } from '../../core/wire/live-types.ts';
import { toRoomPlacement } from './page-pose.ts';

function placementOf(transform: XRRigidTransform, root: THREE.Object3D): Placement {
  const { position: p, orientation: q } = transform;
  return toRoomPlacement(root, new THREE.Vector3(p.x, p.y, p.z), new THREE.Quaternion(q.x, q.y, q.z, q.w));
}

/** The headset's pose in `frame`, or null when the viewer is not tracked. */
export function xrPose(frame: XRFrame, space: XRReferenceSpace, root: THREE.Object3D): Pose | null {
  const viewer = frame.getViewerPose(space);
  if (!viewer) return null;
  const pose: Pose = { head: placementOf(viewer.transform, root) };
  const rays: Partial<Record<XRHandedness, Placement>> = {};
  for (const source of frame.session.inputSources) {
    if (source.handedness === 'none') continue;
    const held = frame.getPose(source.gripSpace ?? source.targetRaySpace, space);
    if (held) (pose.hands ??= {})[source.handedness] = placementOf(held.transform, root);
    const ray = frame.getPose(source.targetRaySpace, space);
    if (ray) rays[source.handedness] = placementOf(ray.transform, root);
  }
  const pointer = rays.right ?? rays.left;
  if (pointer) pose.pointer = pointer;
  return pose;
}
