/**
 * @module mesh-colour
 * The colour a specimen's mesh is drawn in, so that each specimen looks like its own
 * thumbnail rather than all sharing one blue: a `color` the specimen declares (`#rrggbb`),
 * else the colour of its thumbnail's subject (core/wire/subject-colour.ts, which the room's
 * picture reads too), else none, and the stage's default look applies. Colours are
 * remembered per thumbnail URL.
 */
import * as THREE from 'three';
import { SUBJECT_SIDE, subjectRgb } from '../../../core/wire/subject-colour.ts';

const cache = new Map<string, Promise<THREE.Color | null>>();

/** The colour a declared `#rrggbb` names, or null. */
export function declaredColour(value: unknown): THREE.Color | null {
  return typeof value === 'string' && /^#[0-9a-fA-F]{6}$/.test(value) ? new THREE.Color().setStyle(value, THREE.SRGBColorSpace) : null;
}

/** The subject's colour in RGBA pixels (sRGB bytes), or null when they are all dark or grey. */
export function subjectColour(pixels: Uint8ClampedArray | Uint8Array): THREE.Color | null {
  const rgb = subjectRgb(pixels);
  return rgb && new THREE.Color().setRGB(rgb[0], rgb[1], rgb[2], THREE.SRGBColorSpace);
}

async function fromThumbnail(url: string): Promise<THREE.Color | null> {
  try {
    // An <img> decodes every thumbnail type, SVG included (createImageBitmap does not take SVG).
    const image = new Image();
    image.src = url;
    await image.decode();
    const canvas = document.createElement('canvas');
    canvas.width = SUBJECT_SIDE;
    canvas.height = SUBJECT_SIDE;
    const context = canvas.getContext('2d');
    if (!context) return null;
    context.drawImage(image, 0, 0, SUBJECT_SIDE, SUBJECT_SIDE);
    return subjectColour(context.getImageData(0, 0, SUBJECT_SIDE, SUBJECT_SIDE).data);
  } catch {
    return null;
  }
}

/** The colour for a specimen's mesh: declared, else from its thumbnail, else null. */
export function meshColourOf(declared: unknown, thumbnailUrl: string | null): Promise<THREE.Color | null> {
  const own = declaredColour(declared);
  if (own) return Promise.resolve(own);
  if (!thumbnailUrl) return Promise.resolve(null);
  if (!cache.has(thumbnailUrl)) cache.set(thumbnailUrl, fromThumbnail(thumbnailUrl));
  return cache.get(thumbnailUrl)!;
}
