/**
 * @module mesh-object
 * A decoded mesh as a lit three.js mesh. The typed arrays from the client are used as the
 * geometry's attributes directly (no copy); missing normals are computed.
 */
import * as THREE from 'three';
import type { MeshData } from '../../../client/decoded-types.ts';
import type { StageContent } from './stage.ts';

/** The standard look of meshes, in the specimen's own colour when it has one (mesh-colour.ts). */
export function meshMaterial(colour: THREE.Color | null = null): THREE.MeshStandardMaterial {
  return new THREE.MeshStandardMaterial({ color: colour ?? 0x5f9fd6, roughness: 0.38, metalness: 0.1, side: THREE.DoubleSide });
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
  geometry.computeBoundingSphere();
  const material = meshMaterial(colour);
  const object = new THREE.Mesh(geometry, material);
  return {
    object,
    dispose() {
      geometry.dispose();
      material.dispose();
    },
  };
}
