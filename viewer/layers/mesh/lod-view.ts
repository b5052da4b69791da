/**
 * @module lod-view
 * The camera a frame is drawn with, as the level-of-detail selection needs it in a content's
 * own frame: its position, its view's frustum and the pixels a unit spans at distance 1. On the
 * page it is the stage's camera and the canvas; in a VR session the headset's (the camera three.js
 * drew the last frame with: both eyes' frustum, one eye's viewport).
 */
import * as THREE from 'three';
import type { Stage } from '../../stage/stage.ts';
import type { LodView } from './lod-select.ts';

const clip = new THREE.Matrix4();
const inverse = new THREE.Matrix4();
const size = new THREE.Vector2();

/** The view of `stage`'s camera now, in the frame of `object`. */
export function lodView(stage: Pick<Stage, 'renderer' | 'view'>, object: THREE.Object3D): LodView {
  const { renderer } = stage;
  const presenting = renderer.xr.isPresenting;
  const camera: THREE.PerspectiveCamera | THREE.ArrayCamera = presenting ? renderer.xr.getCamera() : stage.view.camera;
  // The page's camera moved by its controls since it was last drawn; the headset's is three's to place.
  if (!presenting) camera.updateMatrixWorld();
  object.updateWorldMatrix(true, false);
  clip.multiplyMatrices(camera.projectionMatrix, camera.matrixWorldInverse).multiply(object.matrixWorld);
  const frustum = new THREE.Frustum().setFromProjectionMatrix(clip);
  inverse.copy(object.matrixWorld).invert();
  const position = new THREE.Vector3().setFromMatrixPosition(camera.matrixWorld).applyMatrix4(inverse);
  const eye = presenting ? (camera as THREE.ArrayCamera).cameras[0]?.viewport?.w : undefined;
  const height = eye && eye > 0 ? eye : renderer.getDrawingBufferSize(size).y;
  return { position, frustum, pixelsPerUnit: (height / 2) * camera.projectionMatrix.elements[5]! };
}
