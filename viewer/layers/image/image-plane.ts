/**
 * @module image-plane
 * An image result as a textured plane facing the camera, pixels kept sharp when magnified.
 * Its samples become 8-bit RGBA texels: uint8 as is, other types scaled by their range.
 */
import * as THREE from 'three';
import type { ImageData2D } from '../../../core/wire/decoded-types.ts';
import type { StageContent } from '../../stage/stage-content.ts';
import { finiteRange } from '../volume/colormaps.ts';

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

/**
 * An image result as RGBA bytes, rows flipped bottom-up (texture rows start at the bottom;
 * image rows at the top).
 */
function imageToRgba(image: ImageData2D): Uint8Array<ArrayBuffer> {
  const { width, height, channels, data } = image;
  const [min, max] = image.dtype === 'uint8' ? [0, 255] : finiteRange(data);
  const scale = 255 / (max - min || 1);
  const out = new Uint8Array(width * height * 4);
  for (let y = 0; y < height; y++) {
    const src = y * width * channels;
    const dst = (height - 1 - y) * width * 4;
    for (let x = 0; x < width; x++) {
      const s = src + x * channels;
      const d = dst + x * 4;
      const v = (i: number): number => Math.max(0, Math.min(255, Math.round((data[s + i]! - min) * scale)));
      if (channels === 1 || channels === 2) {
        const g = v(0);
        out[d] = g;
        out[d + 1] = g;
        out[d + 2] = g;
        out[d + 3] = channels === 2 ? v(1) : 255;
      } else {
        out[d] = v(0);
        out[d + 1] = v(1);
        out[d + 2] = v(2);
        out[d + 3] = channels === 4 ? v(3) : 255;
      }
    }
  }
  return out;
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
