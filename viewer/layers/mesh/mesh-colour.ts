/**
 * @module mesh-colour
 * The colour a specimen's mesh is drawn in, so that each specimen looks like its own
 * thumbnail rather than all sharing one blue: a `color` the specimen declares (`#rrggbb`),
 * else the colour of its thumbnail's subject (the hue of its saturated, lit pixels at full
 * brightness, weighted by saturation and lightness; the dark background and grey highlights
 * count for nothing), else
 * none, and the stage's default look applies. Colours are remembered per thumbnail URL.
 */
import * as THREE from 'three';

const cache = new Map<string, Promise<THREE.Color | null>>();

/** Pixels this dark or this grey say nothing about the subject's colour. */
const MIN_VALUE = 0.25;
const MIN_SATURATION = 0.3;

/** The colour a declared `#rrggbb` names, or null. */
export function declaredColour(value: unknown): THREE.Color | null {
  return typeof value === 'string' && /^#[0-9a-fA-F]{6}$/.test(value) ? new THREE.Color().setStyle(value, THREE.SRGBColorSpace) : null;
}

/** The subject's colour in RGBA pixels (sRGB bytes), or null when they are all dark or grey. */
export function subjectColour(pixels: Uint8ClampedArray | Uint8Array): THREE.Color | null {
  let [red, green, blue, weight] = [0, 0, 0, 0];
  for (let i = 0; i < pixels.length; i += 4) {
    const r = pixels[i]! / 255;
    const g = pixels[i + 1]! / 255;
    const b = pixels[i + 2]! / 255;
    const max = Math.max(r, g, b);
    const saturation = max === 0 ? 0 : (max - Math.min(r, g, b)) / max;
    if (max < MIN_VALUE || saturation < MIN_SATURATION) continue;
    // Lit, saturated pixels say most: shadows darken a colour, highlights bleach it.
    const w = saturation * max * max;
    red += (r / max) * w;
    green += (g / max) * w;
    blue += (b / max) * w;
    weight += w;
  }
  if (weight === 0) return null;
  return new THREE.Color().setRGB(red / weight, green / weight, blue / weight, THREE.SRGBColorSpace);
}

async function fromThumbnail(url: string): Promise<THREE.Color | null> {
  try {
    // An <img> decodes every thumbnail type, SVG included (createImageBitmap does not take SVG).
    const image = new Image();
    image.src = url;
    await image.decode();
    const canvas = document.createElement('canvas');
    canvas.width = 48;
    canvas.height = 48;
    const context = canvas.getContext('2d');
    if (!context) return null;
    context.drawImage(image, 0, 0, 48, 48);
    return subjectColour(context.getImageData(0, 0, 48, 48).data);
  } catch {
    return null;
  }
}

/** The colour for a specimen's mesh: declared, else from its thumbnail, else null. */
export function meshColourOf(declared: unknown, thumbnailUrl: string | null): Promise<THREE.Color | null> {
  const own = declaredColour(declared);
  if (own) return Promise.resolve(own);
  if (!thumbnailUrl) return Promise.resolve(null);
  let colour = cache.get(thumbnailUrl);
  if (!colour) {
    colour = fromThumbnail(thumbnailUrl);
    cache.set(thumbnailUrl, colour);
  }
  return colour;
}
