/**
 * @module raymarch-shader
 * What every ray-marched volume shares (scalar volumes in volume-raymarch.ts, segmentations in
 * labels-raymarch.ts): the vertex shader of the box, the walk along each ray with its
 * front-to-back compositing (each marcher says only what one sample adds), the ray's span
 * through the box, which ends at the depth of the opaque things drawn before (scene-depth.ts),
 * the layer's clip planes (in the box's own space, brought there before each draw), its
 * opacity and blending, and the material that carries them. The box spans [-0.5, 0.5] on each
 * axis in its own space.
 */
import * as THREE from 'three';
import { applyBlending } from '../../stage/layer-look.ts';
import { markRaymarched, type SceneDepthUniforms } from '../../stage/scene-depth.ts';
import type { LayerLook } from '../../stage/stage-content.ts';

/** Largest edge and voxel count drawn this way (a 3D texture of one byte per voxel). */
export const RAYMARCH_MAX_EDGE = 1024;
export const RAYMARCH_MAX_VOXELS = 256 * 1024 * 1024;

/** Steps a ray may take at most: half a voxel across the largest volume's diagonal. */
export const MAX_STEPS = Math.ceil(2 * RAYMARCH_MAX_EDGE * Math.sqrt(3));

export const RAYMARCH_VERTEX = /* glsl */ `
out vec3 vOrigin;
out vec3 vDirection;
out vec4 vClip;
void main() {
  // The camera and the vertex in the box's own space, where the box spans [-0.5, 0.5].
  vOrigin = vec3(inverse(modelMatrix) * vec4(cameraPosition, 1.0)).xyz;
  vDirection = position - vOrigin;
  gl_Position = projectionMatrix * modelViewMatrix * vec4(position, 1.0);
  vClip = gl_Position;
}
`;

/** Declarations and functions every ray marcher's fragment shader starts with. */
export const RAYMARCH_COMMON = /* glsl */ `
precision highp float;
precision highp sampler3D;
in vec3 vOrigin;
in vec3 vDirection;
in vec4 vClip;
uniform mat4 projectionMatrix;
uniform mat4 modelViewMatrix;
uniform sampler2D sceneDepth;
uniform vec2 depthSize;
uniform bool useDepth;
uniform vec4 clipPlanes[4];
uniform int clipCount;
uniform float layerOpacity;
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

// Where the ray runs inside the box, ended where an opaque thing drawn before is nearer.
vec2 raySpan(vec3 dir) {
  vec2 span = hitBox(vOrigin, dir);
  span.x = max(span.x, 0.0);
  if (useDepth) {
    float d = texture(sceneDepth, gl_FragCoord.xy / depthSize).r;
    if (d < 1.0) {
      vec4 local = inverse(projectionMatrix * modelViewMatrix) * vec4(vClip.xy / vClip.w, d * 2.0 - 1.0, 1.0);
      span.y = min(span.y, dot(local.xyz / local.w - vOrigin, dir));
    }
  }
  return span;
}

// True where a clip plane of the layer cuts the sample at p (box space) away.
bool clippedAway(vec3 p) {
  for (int i = 0; i < 4; i++) {
    if (i >= clipCount) break;
    if (dot(clipPlanes[i].xyz, p) + clipPlanes[i].w < 0.0) return true;
  }
  return false;
}

// A per-pixel offset of the first step, so steps do not line up into bands.
float stepOffset() {
  return fract(sin(dot(gl_FragCoord.xy, vec2(12.9898, 78.233))) * 43758.5453);
}
`;

/**
 * The fragment shader's main(): walks the view ray through the box front to back (steps of
 * `stepSize` from a per-pixel offset, clipped samples skipped) and runs `sample` at each point
 * `p` (texture coordinates, 0..1), with `texel` (one voxel in them), `viewDir` (the ray in the
 * box's real proportions) and `stepsPerVoxel` in scope. `sample` sets `float alpha` (opacity
 * corrected for the step) and `vec3 rgb`, or `continue`s past an empty sample; the colours
 * are composited front to back and the ray stops once nearly opaque.
 */
export function rayMarchMain(sample: string): string {
  return /* glsl */ `
void main() {
  vec3 dir = normalize(vDirection);
  vec2 span = raySpan(dir);
  if (span.x > span.y) discard;
  // The box's local unit cube stretched to its real size: the length of one step and of one voxel there.
  float stepLength = length(dir * boxSize) * stepSize;
  float voxelLength = length(boxSize / voxels) / sqrt(3.0);
  float stepsPerVoxel = stepLength / voxelLength;
  vec3 viewDir = normalize(dir * boxSize);
  vec3 texel = 1.0 / voxels;
  float offset = stepOffset();
  vec4 acc = vec4(0.0);
  for (int i = 0; i < ${MAX_STEPS}; i++) {
    float t = span.x + (float(i) + offset) * stepSize;
    if (t > span.y) break;
    vec3 local = vOrigin + t * dir;
    if (clippedAway(local)) continue;
    vec3 p = local + 0.5;
${sample}
    acc.rgb += (1.0 - acc.a) * alpha * rgb;
    acc.a += (1.0 - acc.a) * alpha;
    if (acc.a > 0.97) break;
  }
  if (acc.a < 0.004) discard;
  fragColor = vec4(acc.rgb / acc.a, acc.a * layerOpacity);
}
`;
}

/** Voxels, or units, along each axis of a box. */
type Sizes = { x: number; y: number; z: number };

/**
 * The box (scaled to `dims`) that runs `fragmentShader` with `uniforms` and the shared ones:
 * the scene depth, the clip planes (the layer's world planes brought into the box's space
 * before each draw), the layer opacity, the step and the box's proportions. Disposing it frees
 * the textures among `uniforms` too.
 */
export function createRaymarchBox(
  fragmentShader: string,
  uniforms: Record<string, THREE.IUniform>,
  voxels: Sizes,
  dims: Sizes,
  depth: SceneDepthUniforms,
) {
  const clipPlanes = Array.from({ length: 4 }, () => new THREE.Vector4());
  const material = new THREE.ShaderMaterial({
    glslVersion: THREE.GLSL3,
    vertexShader: RAYMARCH_VERTEX,
    fragmentShader: RAYMARCH_COMMON + fragmentShader,
    uniforms: {
      ...uniforms,
      ...depth,
      clipPlanes: { value: clipPlanes },
      clipCount: { value: 0 },
      layerOpacity: { value: 1 },
      // Two samples per voxel along the longest edge (at least 64 across the box).
      stepSize: { value: 1 / Math.max(64, 2 * Math.max(voxels.x, voxels.y, voxels.z)) },
      boxSize: { value: new THREE.Vector3(dims.x, dims.y, dims.z) },
      voxels: { value: new THREE.Vector3(voxels.x, voxels.y, voxels.z) },
    },
    // The box's back faces lie behind whatever is inside it: the depth test would drop every
    // ray in front of a mesh within. The rays end at the scene's depth themselves (raySpan).
    side: THREE.BackSide,
    transparent: true,
    depthWrite: false,
    depthTest: false,
  });
  const geometry = new THREE.BoxGeometry(1, 1, 1);
  const mesh = new THREE.Mesh(geometry, material);
  mesh.scale.set(dims.x, dims.y, dims.z);
  markRaymarched(mesh);
  let world: THREE.Plane[] = [];
  const plane = new THREE.Plane();
  const toBox = new THREE.Matrix4();
  mesh.onBeforeRender = () => {
    toBox.copy(mesh.matrixWorld).invert();
    const count = Math.min(4, world.length);
    for (let i = 0; i < count; i++) {
      plane.copy(world[i]!).applyMatrix4(toBox);
      clipPlanes[i]!.set(plane.normal.x, plane.normal.y, plane.normal.z, plane.constant);
    }
    material.uniforms.clipCount!.value = count;
  };
  return {
    mesh,
    /** Takes the layer's opacity, blending, clip planes and draw order. */
    applyLook(look: LayerLook): void {
      world = look.clipPlanes;
      mesh.renderOrder = look.renderOrder;
      applyBlending(material, look.blending);
      material.uniforms.layerOpacity!.value = look.blending === 'opaque' ? 1 : look.opacity;
      material.needsUpdate = true;
    },
    dispose(): void {
      geometry.dispose();
      material.dispose();
      for (const { value } of Object.values(uniforms)) if (value instanceof THREE.Texture) value.dispose();
    },
  };
}
