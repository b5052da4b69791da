/**
 * @module volume-raymarch
 * A volume drawn whole by ray marching: the samples, scaled to 0..255, go into a 3D texture;
 * a box of the volume's size runs a fragment shader that walks each view ray through it
 * front to back, colouring samples through the colour map and absorbing light with a
 * density control. Samples under the floor are empty space. Needs WebGL2 (as three does).
 */
import * as THREE from 'three';

/** Largest edge and voxel count drawn this way (a 3D texture of one byte per voxel). */
export const RAYMARCH_MAX_EDGE = 1024;
export const RAYMARCH_MAX_VOXELS = 256 * 1024 * 1024;

const vertexShader = /* glsl */ `
out vec3 vOrigin;
out vec3 vDirection;
void main() {
  // The camera and the vertex in the box's own space, where the box spans [-0.5, 0.5].
  vOrigin = vec3(inverse(modelMatrix) * vec4(cameraPosition, 1.0)).xyz;
  vDirection = position - vOrigin;
  gl_Position = projectionMatrix * modelViewMatrix * vec4(position, 1.0);
}
`;

const fragmentShader = /* glsl */ `
precision highp float;
precision highp sampler3D;
in vec3 vOrigin;
in vec3 vDirection;
uniform sampler3D volume;
uniform sampler2D colormap;
uniform float floorValue;
uniform float windowLow;
uniform float windowHigh;
uniform float density;
uniform float stepSize;
out vec4 fragColor;

vec2 hitBox(vec3 origin, vec3 dir) {
  vec3 inv = 1.0 / dir;
  vec3 a = (vec3(-0.5) - origin) * inv;
  vec3 b = (vec3(0.5) - origin) * inv;
  vec3 lo = min(a, b);
  vec3 hi = max(a, b);
  return vec2(max(max(lo.x, lo.y), lo.z), min(min(hi.x, hi.y), hi.z));
}

void main() {
  vec3 dir = normalize(vDirection);
  vec2 span = hitBox(vOrigin, dir);
  if (span.x > span.y) discard;
  span.x = max(span.x, 0.0);
  vec4 acc = vec4(0.0);
  for (float t = span.x; t < span.y; t += stepSize) {
    // The window maps its share of the value range onto the whole colour map.
    float v = (texture(volume, vOrigin + t * dir + 0.5).r - windowLow) / max(windowHigh - windowLow, 1e-4);
    if (v < floorValue) continue;
    v = min(v, 1.0);
    float w = (v - floorValue) / max(1.0 - floorValue, 1e-3);
    float alpha = 1.0 - exp(-density * w * stepSize * 4.0);
    vec3 rgb = texture(colormap, vec2(v, 0.5)).rgb;
    acc.rgb += (1.0 - acc.a) * alpha * rgb;
    acc.a += (1.0 - acc.a) * alpha;
    if (acc.a > 0.97) break;
  }
  if (acc.a < 0.004) discard;
  fragColor = vec4(acc.rgb / acc.a, acc.a);
}
`;

export interface RaymarchedVolume {
  mesh: THREE.Mesh;
  setColormap(table: Uint8Array): void;
  /** The window as shares (0..1) of the value range the samples were scaled by. */
  setWindow(low: number, high: number): void;
  /** 0..255, the colour-map index under which samples are empty. */
  setFloor(floor: number): void;
  setDensity(density: number): void;
  dispose(): void;
}

/**
 * The ray-marched box for samples `data` (C order, `[d, h, w]`, x fastest), scaled by
 * `[min, min + span]` into bytes, drawn in a box of `dims` scene units.
 */
export function createRaymarchedVolume(
  data: ArrayLike<number>,
  shape: { w: number; h: number; d: number },
  range: { min: number; span: number },
  dims: { x: number; y: number; z: number },
  table: Uint8Array,
): RaymarchedVolume {
  const { w, h, d } = shape;
  const bytes = new Uint8Array(w * h * d);
  for (let i = 0; i < bytes.length; i++) {
    const v = ((data[i]! - range.min) / range.span) * 255;
    bytes[i] = v > 255 ? 255 : v > 0 ? Math.round(v) : 0; // NaN lands on 0: empty
  }
  const volume = new THREE.Data3DTexture(bytes, w, h, d);
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

  // About two samples per voxel along the longest edge, within 64..512 per unit of the box.
  const steps = Math.min(512, Math.max(64, 2 * Math.max(w, h, d)));
  const material = new THREE.ShaderMaterial({
    glslVersion: THREE.GLSL3,
    vertexShader,
    fragmentShader,
    uniforms: {
      volume: { value: volume },
      colormap: { value: colormap },
      floorValue: { value: 3 / 255 },
      windowLow: { value: 0 },
      windowHigh: { value: 1 },
      density: { value: 1 },
      stepSize: { value: 1 / steps },
    },
    side: THREE.BackSide,
    transparent: true,
    depthWrite: false,
  });
  const geometry = new THREE.BoxGeometry(1, 1, 1);
  const mesh = new THREE.Mesh(geometry, material);
  mesh.scale.set(dims.x, dims.y, dims.z);

  return {
    mesh,
    setColormap,
    setWindow(lowShare, highShare) {
      material.uniforms.windowLow!.value = lowShare;
      material.uniforms.windowHigh!.value = highShare;
    },
    setFloor(floor) {
      material.uniforms.floorValue!.value = floor / 255;
    },
    setDensity(value) {
      material.uniforms.density!.value = value;
    },
    dispose() {
      volume.dispose();
      colormap.dispose();
      geometry.dispose();
      material.dispose();
    },
  };
}
