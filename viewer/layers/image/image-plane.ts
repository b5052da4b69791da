/**
 * @module image-plane
 * An image result as a textured plane facing the camera, pixels kept sharp when magnified.
 */
import * as THREE from 'three';
import type { ImageData2D } from '../../../core/wire/decoded-types.ts';
import { imageToRgba } from './rgba.ts';
import type { StageContent } from '../../stage/stage-content.ts';

/** A plane of the image's aspect, 2 units on its longer side, showing `texture`. */
export function texturePlane(texture: THREE.Texture, width: number, height: number): StageContent {
  const scale = 2 / Math.max(width, height, 1);
  const geometry = new THREE.PlaneGeometry(width * scale, height * scale);
  const material = new THREE.MeshBasicMaterial({ map: texture, side: THREE.DoubleSide, transparent: true, toneMapped: false });
  return {
    object: new THREE.Mesh(geometry, material),
    view: 'front',
    dispose() {
      geometry.dispose();
      material.dispose();
      texture.dispose();
    },
  };
}

/** An image result on the stage. */
export function createImagePlane(image: ImageData2D): StageContent {
  const texture = new THREE.DataTexture(imageToRgba(image), image.width, image.height, THREE.RGBAFormat);
  texture.colorSpace = THREE.SRGBColorSpace;
  texture.magFilter = THREE.NearestFilter;
  texture.minFilter = THREE.LinearFilter;
  texture.generateMipmaps = false;
  texture.needsUpdate = true;
  return texturePlane(texture, image.width, image.height);
}
