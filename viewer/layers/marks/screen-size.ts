/**
 * @module screen-size
 * Sizes of what the stage draws at a fixed size on screen (a mark's marker and words, the VR
 * scale bar's words), in CSS pixels, whatever the data's scale, the camera's distance or the
 * window's height: the way Neuroglancer and napari keep their annotation text a few pixels
 * tall. These sprites take no size from their distance (`sizeAttenuation: false`), so their
 * scale is an extent at one unit in front of the camera; on the page one CSS pixel is the
 * view's height at that depth over the canvas's height. A headset has no CSS pixels: there a
 * pixel is a fixed angle, large enough to read on a headset's display.
 */
import * as THREE from 'three';

/** The angle one CSS pixel stands for in VR, radians (a 13 px text is about 1.1 degrees tall). */
export const VR_RADIANS_PER_PX = 0.0015;

/** A sprite's scale per CSS pixel of height on `camera`, drawn into a canvas `heightPx` tall (VR when `presenting`). */
export function scalePerPixel(camera: THREE.PerspectiveCamera, heightPx: number, presenting: boolean): number {
  if (presenting) return VR_RADIANS_PER_PX;
  return (2 * Math.tan(THREE.MathUtils.degToRad(camera.fov) / 2)) / camera.zoom / Math.max(1, heightPx);
}

/** Marks `sprite` as `px` CSS pixels tall (its width follows by `aspect`) and sizes it for VR until fitted. */
export function pixelSized<T extends THREE.Sprite>(sprite: T, px: number, aspect = 1): T {
  sprite.userData.px = px;
  sprite.userData.aspect = aspect;
  sprite.scale.set(px * aspect * VR_RADIANS_PER_PX, px * VR_RADIANS_PER_PX, 1);
  return sprite;
}

/** Sizes a `pixelSized` sprite at `perPixel` (scalePerPixel), undoing `parentScale`, the scale of the group it hangs from. */
export function fitPixelSized(sprite: THREE.Sprite, perPixel: number, parentScale: number): void {
  const px = sprite.userData.px as number | undefined;
  if (px === undefined) return;
  const height = (px * perPixel) / parentScale;
  sprite.scale.set(height * (sprite.userData.aspect as number), height, 1);
}
