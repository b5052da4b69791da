/**
 * @module text-sprite
 * A short text drawn in the stage as a sprite that always faces the camera and keeps its size
 * on screen wherever the camera is (a ruler's length beside it), over everything else: the
 * scale bar's text height on the page, on a plate half as tall again (screen-size.ts).
 */
import * as THREE from 'three';
import { pixelSized } from './screen-size.ts';

/** The text's height on screen, CSS pixels (the page's scale bar writes 12 px). */
export const TEXT_PX = 13;
/** The plate's height over the text's. */
const PLATE = 1.5;
/** The canvas draws the text this many times larger than it is shown, so it stays crisp on dense screens and in a headset. */
const OVERSAMPLE = 3;

/** A sprite showing `text` in `colour` on a dark plate; dispose its material and texture with it. */
export function textSprite(text: string, colour: string): THREE.Sprite {
  const fontPx = TEXT_PX * OVERSAMPLE;
  const canvas = document.createElement('canvas');
  const context = canvas.getContext('2d')!;
  const font = `600 ${fontPx}px system-ui, sans-serif`;
  context.font = font;
  canvas.width = Math.ceil(context.measureText(text).width) + fontPx;
  canvas.height = Math.round(fontPx * PLATE);
  context.font = font;
  context.fillStyle = 'rgba(11, 15, 21, 0.8)';
  context.fillRect(0, 0, canvas.width, canvas.height);
  context.fillStyle = colour;
  context.textBaseline = 'middle';
  context.fillText(text, fontPx / 2, canvas.height / 2);
  const texture = new THREE.CanvasTexture(canvas);
  texture.colorSpace = THREE.SRGBColorSpace;
  const sprite = new THREE.Sprite(
    new THREE.SpriteMaterial({ map: texture, depthTest: false, depthWrite: false, sizeAttenuation: false, transparent: true }),
  );
  pixelSized(sprite, TEXT_PX * PLATE, canvas.width / canvas.height);
  // Centred just above its anchor rather than over it (the marker under it stays visible).
  sprite.center.set(0.5, -0.6);
  sprite.renderOrder = 1001;
  return sprite;
}
