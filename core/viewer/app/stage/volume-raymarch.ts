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
 * (voxel spacing included). Samples under the floor are empty space. Needs WebGL2.
 */
import * as THREE from 'three';

/** Largest edge and voxel count drawn this way (a 3D texture of one byte per voxel). */
export const RAYMARCH_MAX_EDGE = 1024;
export const RAYMARCH_MAX_VOXELS = 256 * 1024 * 1024;

/** Steps a ray may take at most: half a voxel across the largest volume's diagonal. */
const MAX_STEPS = Math.ceil(2 * RAYMARCH_MAX_EDGE * Math.sqrt(3));

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
uniform vec3 boxSize;
uniform vec3 voxels;
out vec4 fragColor;

vec2 hitBox(vec3 origin, vec3 dir) {
  vec3 inv = 1.0 / dir;
  vec3 a = (vec3(-0.5) - origin) * inv;
  vec3 b = (vec3(0.5) - origin) * inv;
  vec3 lo = min(a, b);
  vec3 hi = max(a, b);
  return vec2(max(max(lo.x, lo.y), lo.z), min(min(hi.x, hi.y), hi.z));
}

// A sample's place in the window: 0 at its low end, 1 at its high end (not clamped).
float windowed(vec3 p) {
  return (texture(volume, p).r - windowLow) / max(windowHigh - windowLow, 1e-4);
}

void main() {
  vec3 dir = normalize(vDirection);
  vec2 span = hitBox(vOrigin, dir);
  if (span.x > span.y) discard;
  span.x = max(span.x, 0.0);
  // The box's local unit cube stretched to its real size: the length of one step and of one voxel there.
  float stepLength = length(dir * boxSize) * stepSize;
  float voxelLength = length(boxSize / voxels) / sqrt(3.0);
  float stepsPerVoxel = stepLength / voxelLength;
  vec3 viewDir = normalize(dir * boxSize);
  vec3 texel = 1.0 / voxels;
  float offset = fract(sin(dot(gl_FragCoord.xy, vec2(12.9898, 78.233))) * 43758.5453);
  vec4 acc = vec4(0.0);
  for (int i = 0; i < ${MAX_STEPS}; i++) {
    float t = span.x + (float(i) + offset) * stepSize;
    if (t > span.y) break;
    vec3 p = vOrigin + t * dir + 0.5;
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
    vec3 rgb = texture(colormap, vec2(clamp(v, 0.0, 1.0), 0.5)).rgb * lit;
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

  // Two samples per voxel along the longest edge (at least 64 across the box).
  const steps = Math.max(64, 2 * Math.max(w, h, d));
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
      boxSize: { value: new THREE.Vector3(dims.x, dims.y, dims.z) },
      voxels: { value: new THREE.Vector3(w, h, d) },
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
