/**
 * @module text-sprite
 * A short text drawn in the stage as a sprite that always faces the camera and keeps its size
 * on screen wherever the camera is (a ruler's length beside it), over everything else.
 */
import * as THREE from 'three';

/** Its height as a share of the view's height (about: the camera's field of view sets it). */
const HEIGHT = 0.04;
const FONT_PX = 40;

/** A sprite showing `text` in `colour` on a dark plate; dispose its material and texture with it. */
export function textSprite(text: string, colour: string): THREE.Sprite {
  const canvas = document.createElement('canvas');
  const context = canvas.getContext('2d')!;
  const font = `600 ${FONT_PX}px system-ui, sans-serif`;
  context.font = font;
  const width = Math.ceil(context.measureText(text).width) + FONT_PX;
  canvas.width = width;
  canvas.height = Math.round(FONT_PX * 1.5);
  context.font = font;
  context.fillStyle = 'rgba(11, 15, 21, 0.8)';
  context.fillRect(0, 0, canvas.width, canvas.height);
  context.fillStyle = colour;
  context.textBaseline = 'middle';
  context.fillText(text, FONT_PX / 2, canvas.height / 2);
  const texture = new THREE.CanvasTexture(canvas);
  texture.colorSpace = THREE.SRGBColorSpace;
  const sprite = new THREE.Sprite(
    new THREE.SpriteMaterial({ map: texture, depthTest: false, depthWrite: false, sizeAttenuation: false, transparent: true }),
  );
  sprite.scale.set((HEIGHT * canvas.width) / canvas.height, HEIGHT, 1);
  // Centred just above its anchor rather than over it (the marker under it stays visible).
  sprite.center.set(0.5, -0.6);
  sprite.renderOrder = 1001;
  return sprite;
}
