/**
 * @module labels-raymarch
 * A segmentation drawn whole by ray marching. Its indices (label-ids.ts) go to the GPU as an
 * integer 3D texture read with texelFetch, so an id is never blended with its neighbour's; the
 * colour table (labels-volume.ts) is a small 2D texture, 256 entries a row, read the same way,
 * and a change of colours or of the selection rewrites only it. Each visible sample is nearly
 * opaque, shaded by the gradient of "is drawn" around it, so segments read as solid bodies
 * with surfaces. The box, its depth test, clip planes and layer opacity are raymarch-shader.ts's.
 */
import * as THREE from 'three';
import type { LabelIds } from './label-ids.ts';
import { createRaymarchBox, rayMarchMain } from '../volume/raymarch-shader.ts';
import type { SceneDepthUniforms } from '../../stage/scene-depth.ts';

const fragmentShader = /* glsl */ `
precision highp usampler3D;
uniform usampler3D labels;
uniform sampler2D table;

vec4 colourAt(vec3 p) {
  ivec3 v = clamp(ivec3(floor(p * voxels)), ivec3(0), ivec3(voxels) - 1);
  uint index = texelFetch(labels, v, 0).r;
  return texelFetch(table, ivec2(int(index % 256u), int(index / 256u)), 0);
}

float drawn(vec3 p) {
  return colourAt(p).a > 0.0 ? 1.0 : 0.0;
}

${rayMarchMain(/* glsl */ `
    vec4 c = colourAt(p);
    if (c.a == 0.0) continue;
    vec3 g = vec3(
      drawn(p - vec3(texel.x, 0.0, 0.0)) - drawn(p + vec3(texel.x, 0.0, 0.0)),
      drawn(p - vec3(0.0, texel.y, 0.0)) - drawn(p + vec3(0.0, texel.y, 0.0)),
      drawn(p - vec3(0.0, 0.0, texel.z)) - drawn(p + vec3(0.0, 0.0, texel.z))
    );
    vec3 n = g / boxSize * voxels;
    float lit = length(n) > 1e-5 ? 0.45 + 0.55 * abs(dot(normalize(n), viewDir)) : 0.8;
    float alpha = 1.0 - pow(1.0 - 0.85, stepsPerVoxel);
    vec3 rgb = c.rgb * lit;`)}
`;

export type LabelsRaymarch = ReturnType<typeof createLabelsRaymarch>;

/** The integer texture of `ids.index` (C order, `[d, h, w]`; `count` along each axis). */
function indexTexture(ids: LabelIds, count: { x: number; y: number; z: number }): THREE.Data3DTexture {
  const texture = new THREE.Data3DTexture(ids.index, count.x, count.y, count.z);
  texture.format = THREE.RedIntegerFormat;
  if (ids.index instanceof Uint8Array) [texture.type, texture.internalFormat] = [THREE.UnsignedByteType, 'R8UI'];
  else if (ids.index instanceof Uint16Array) [texture.type, texture.internalFormat] = [THREE.UnsignedShortType, 'R16UI'];
  else [texture.type, texture.internalFormat] = [THREE.UnsignedIntType, 'R32UI'];
  texture.minFilter = THREE.NearestFilter;
  texture.magFilter = THREE.NearestFilter;
  texture.unpackAlignment = 1;
  texture.needsUpdate = true;
  return texture;
}

export function createLabelsRaymarch(
  ids: LabelIds,
  count: { x: number; y: number; z: number },
  dims: { x: number; y: number; z: number },
  table: Uint8Array,
  depth: SceneDepthUniforms,
) {
  const labels = indexTexture(ids, count);
  const rows = Math.max(1, Math.ceil(ids.size / 256));
  const pixels = new Uint8Array(256 * rows * 4);
  const tableTexture = new THREE.DataTexture(pixels, 256, rows, THREE.RGBAFormat);
  tableTexture.minFilter = THREE.NearestFilter;
  tableTexture.magFilter = THREE.NearestFilter;
  /** Uploads a new colour table (labels-volume.ts), one RGBA entry per index. */
  const setTable = (next: Uint8Array): void => {
    pixels.fill(0);
    pixels.set(next.subarray(0, pixels.length));
    tableTexture.needsUpdate = true;
  };
  setTable(table);
  const box = createRaymarchBox(fragmentShader, { labels: { value: labels }, table: { value: tableTexture } }, count, dims, depth);
  return { ...box, setTable };
}
