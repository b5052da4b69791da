/**
 * @module volume-raymarch
 * A volume drawn whole by ray marching: the samples, scaled to 0..255, go into a 3D texture;
 * a box of the volume's size runs a fragment shader that walks each view ray through it
 * front to back. The transfer function follows the colour bar: a sample takes the colour map
 * at its place in the window, and its opacity rises from nothing at the floor to full at the
 * window's top (values past the top are a faint veil in the last colour, so a bright shell
 * does not hide the inside the window is set on), stronger where the
 * value changes (boundaries between tissues) and shaded by its gradient against the view
 * ray, so surfaces read as surfaces rather than a fog. Opacity is given per voxel length and
 * corrected for the step actually taken, so the picture does not change with the number of
 * steps; steps are half a voxel, started at a per-pixel offset (no wood-grain bands), and a
 * ray stops once it is nearly opaque. Distances are measured in the box's real proportions
 * (voxel spacing included). Samples under the floor are empty space. The box, its depth
 * test against opaque things, clip planes and layer opacity are raymarch-shader.ts's. Needs WebGL2.
 */
import * as THREE from 'three';
import { createRaymarchBox, rayMarchMain } from './raymarch-shader.ts';
import type { SceneDepthUniforms } from '../../stage/scene-depth.ts';

const fragmentShader = /* glsl */ `
uniform sampler3D volume;
uniform sampler2D colormap;
uniform float floorValue;
uniform float windowLow;
uniform float windowHigh;
uniform float gamma;
uniform float density;

// A sample's place in the window: 0 at its low end, 1 at its high end (not clamped).
float windowed(vec3 p) {
  return (texture(volume, p).r - windowLow) / max(windowHigh - windowLow, 1e-4);
}

${rayMarchMain(/* glsl */ `
    float v = windowed(p);
    if (v < floorValue) continue;
    float ramp = clamp((v - floorValue) / max(1.0 - floorValue, 1e-3), 0.0, 1.0);
    // The gradient in window units per voxel: boundaries between tissues.
    vec3 g = vec3(
      windowed(p + vec3(texel.x, 0.0, 0.0)) - windowed(p - vec3(texel.x, 0.0, 0.0)),
      windowed(p + vec3(0.0, texel.y, 0.0)) - windowed(p - vec3(0.0, texel.y, 0.0)),
      windowed(p + vec3(0.0, 0.0, texel.z)) - windowed(p - vec3(0.0, 0.0, texel.z))
    ) * 0.5;
    float edge = clamp(length(g) * 4.0, 0.0, 1.0);
    // Past the window's top (a skull above a brain window) only a faint veil: it must not hide what the window is on.
    float veil = 1.0 - 0.9 * smoothstep(1.0, 1.1, v);
    float perVoxel = clamp(density * 0.3 * (0.25 + 0.75 * ramp) * (0.5 + 0.5 * edge) * veil, 0.0, 0.999);
    float alpha = 1.0 - pow(1.0 - perVoxel, stepsPerVoxel);
    // The normal in the box's real proportions; lit from the eye.
    vec3 n = g / boxSize * voxels;
    float lit = length(n) > 1e-5 ? 0.35 + 0.65 * abs(dot(normalize(n), viewDir)) : 1.0;
    vec3 rgb = texture(colormap, vec2(pow(clamp(v, 0.0, 1.0), gamma), 0.5)).rgb * lit;`)}
`;

export type RaymarchedVolume = ReturnType<typeof createRaymarchedVolume>;

/** Samples scaled by `[min, min + span]` into bytes (NaN and values below land on 0: empty). */
export function toBytes(data: ArrayLike<number>, range: { min: number; span: number }): Uint8Array<ArrayBuffer> {
  const bytes = new Uint8Array(data.length);
  for (let i = 0; i < bytes.length; i++) {
    const v = ((data[i]! - range.min) / range.span) * 255;
    bytes[i] = v > 255 ? 255 : v > 0 ? Math.round(v) : 0;
  }
  return bytes;
}

/**
 * The ray-marched box for samples `data` (C order, `[d, h, w]`, x fastest; `count` of them
 * along each axis), scaled by `[min, min + span]` into bytes, drawn in a box of `dims` units.
 */
export function createRaymarchedVolume(
  data: ArrayLike<number>,
  count: { x: number; y: number; z: number },
  range: { min: number; span: number },
  dims: { x: number; y: number; z: number },
  table: Uint8Array,
  depth: SceneDepthUniforms,
) {
  const volume = new THREE.Data3DTexture(toBytes(data, range), count.x, count.y, count.z);
  volume.format = THREE.RedFormat;
  volume.type = THREE.UnsignedByteType;
  volume.minFilter = THREE.LinearFilter;
  volume.magFilter = THREE.LinearFilter;
  volume.unpackAlignment = 1;
  volume.needsUpdate = true;

  const colormapPixels = new Uint8Array(256 * 4);
  const colormap = new THREE.DataTexture(colormapPixels, 256, 1, THREE.RGBAFormat);
  colormap.minFilter = THREE.LinearFilter;
  colormap.magFilter = THREE.LinearFilter;
  const setColormap = (next: Uint8Array): void => {
    for (let k = 0; k < 256; k++) {
      colormapPixels.set(next.subarray(k * 3, k * 3 + 3), k * 4);
      colormapPixels[k * 4 + 3] = 255;
    }
    colormap.needsUpdate = true;
  };
  setColormap(table);

  const uniforms = {
    volume: { value: volume },
    colormap: { value: colormap },
    floorValue: { value: 3 / 255 },
    windowLow: { value: 0 },
    windowHigh: { value: 1 },
    gamma: { value: 1 },
    density: { value: 1 },
  };
  const box = createRaymarchBox(fragmentShader, uniforms, count, dims, depth);
  return {
    ...box,
    setColormap,
    /** The window as shares (0..1) of the value range the samples were scaled by. */
    setWindow(lowShare: number, highShare: number): void {
      uniforms.windowLow.value = lowShare;
      uniforms.windowHigh.value = highShare;
    },
    /** 0..255, the colour-map index under which samples are empty. */
    setFloor(floor: number): void {
      uniforms.floorValue.value = floor / 255;
    },
    setDensity(value: number): void {
      uniforms.density.value = value;
    },
    /** The exponent applied to a sample's place in the window before the colour map (1: linear). */
    setGamma(value: number): void {
      uniforms.gamma.value = value > 0 && Number.isFinite(value) ? value : 1;
    },
  };
}
