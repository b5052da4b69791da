/**
 * @module mesh-object
 * A decoded mesh as a lit three.js mesh. The typed arrays from the client are used as the
 * geometry's attributes directly (no copy); missing normals are computed. Per-vertex colours,
 * when the mesh has them, replace the material colour; they are sRGB (as a colour picker gives
 * them) and converted to the linear values three.js shades with.
 */
import * as THREE from 'three';
import type { MeshData } from '../../../core/wire/decoded-types.ts';
import { DEFAULT_MESH_COLOUR } from '../../../core/wire/layer-defaults.ts';
import { setOwnOpacity } from '../../stage/layer-look.ts';
import type { StageContent } from '../../stage/stage-content.ts';

/** One sRGB channel (0..1) as linear light. */
function toLinear(c: number): number {
  const v = Math.min(1, Math.max(0, c));
  return v <= 0.04045 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4;
}

/** sRGB colours (bytes 0..255 or floats 0..1) as the linear floats three.js shades with. */
export function linearColors(colors: Uint8Array | Float32Array): Float32Array {
  const linear = new Float32Array(colors.length);
  if (colors instanceof Uint8Array) {
    const table = new Float32Array(256).map((_, i) => toLinear(i / 255));
    for (let i = 0; i < colors.length; i++) linear[i] = table[colors[i]!]!;
  } else {
    for (let i = 0; i < colors.length; i++) linear[i] = toLinear(colors[i]!);
  }
  return linear;
}

/**
 * The standard look of meshes, in the specimen's own colour when it has one (mesh-colour.ts);
 * with `vertexColors`, white, so each vertex shows its own colour.
 */
export function meshMaterial(colour: THREE.Color | null = null, vertexColors = false): THREE.MeshStandardMaterial {
  const color = vertexColors ? 0xffffff : (colour ?? new THREE.Color().setStyle(DEFAULT_MESH_COLOUR, THREE.SRGBColorSpace));
  return new THREE.MeshStandardMaterial({ color, roughness: 0.38, metalness: 0.1, side: THREE.DoubleSide, vertexColors });
}

/** A mesh result on the stage. */
export function createMeshObject(mesh: MeshData, colour: THREE.Color | null = null): StageContent {
  const geometry = new THREE.BufferGeometry();
  geometry.setAttribute('position', new THREE.BufferAttribute(mesh.vertices, 3));
  if (mesh.indices.length > 0) geometry.setIndex(new THREE.BufferAttribute(mesh.indices, 1));
  if (mesh.normals && mesh.normals.length === mesh.vertices.length) {
    geometry.setAttribute('normal', new THREE.BufferAttribute(mesh.normals, 3));
  } else {
    geometry.computeVertexNormals();
  }
  const colors = mesh.colors && mesh.colors.length === mesh.vertices.length ? mesh.colors : null;
  if (colors) geometry.setAttribute('color', new THREE.BufferAttribute(linearColors(colors), 3));
  geometry.computeBoundingSphere();
  const material = meshMaterial(colour, colors !== null);
  const object = new THREE.Mesh(geometry, material);
  return {
    object,
    // A room's opacity fades the surface (depth still written, so it does not turn inside out);
    // its layer's opacity multiplies it (layer-look.ts).
    applyView(view) {
      if (typeof view.opacity !== 'number' || !(view.opacity >= 0 && view.opacity <= 1)) return;
      setOwnOpacity(material, view.opacity);
    },
    dispose() {
      geometry.dispose();
      material.dispose();
    },
  };
}
