/**
 * @module points-object
 * A decoded point cloud as three.js points: per-point colours when given (bytes are
 * normalised on the GPU), else scalars through a colour map, else one colour.
 */
import * as THREE from 'three';
import type { PointCloudData } from '../../../client/decoded-types.ts';
import { colormapTable, finiteRange } from './colormaps.ts';
import type { ColormapName } from './colormaps.ts';
import type { StageContent } from './stage.ts';

function scalarColors(scalars: Float32Array, map: ColormapName): Uint8Array {
  const table = colormapTable(map);
  const [min, max] = finiteRange(scalars);
  const span = max - min || 1;
  const out = new Uint8Array(scalars.length * 3);
  for (let i = 0; i < scalars.length; i++) {
    const k = Math.max(0, Math.min(255, Math.round(((scalars[i]! - min) / span) * 255))) * 3;
    out[i * 3] = table[k]!;
    out[i * 3 + 1] = table[k + 1]!;
    out[i * 3 + 2] = table[k + 2]!;
  }
  return out;
}

/** A point cloud on the stage. */
export function createPointsObject(cloud: PointCloudData, map: ColormapName = 'viridis'): StageContent {
  const geometry = new THREE.BufferGeometry();
  geometry.setAttribute('position', new THREE.BufferAttribute(cloud.points, 3));
  const count = cloud.points.length / 3;
  let colored = false;
  if (cloud.colors && cloud.colors.length === count * 3) {
    geometry.setAttribute('color', new THREE.BufferAttribute(cloud.colors, 3, cloud.colors instanceof Uint8Array));
    colored = true;
  } else if (cloud.scalars && cloud.scalars.length === count) {
    geometry.setAttribute('color', new THREE.BufferAttribute(scalarColors(cloud.scalars, map), 3, true));
    colored = true;
  }
  geometry.computeBoundingSphere();
  const radius = geometry.boundingSphere?.radius ?? 1;
  const material = new THREE.PointsMaterial({
    size: Math.max(radius * 0.016, 1e-4),
    sizeAttenuation: true,
    vertexColors: colored,
    color: colored ? 0xffffff : 0x9cc7ee,
  });
  return {
    object: new THREE.Points(geometry, material),
    dispose() {
      geometry.dispose();
      material.dispose();
    },
  };
}
