/**
 * @module file-object
 * A static specimen's data file on the stage: meshes (.obj, .ply, .stl, .glb/.gltf) through
 * three's loaders, pictures (png, jpeg, webp, gif) as a textured plane. Other files cannot be
 * previewed; the caller offers a download instead.
 */
import * as THREE from 'three';
import { OBJLoader } from 'three/examples/jsm/loaders/OBJLoader.js';
import { PLYLoader } from 'three/examples/jsm/loaders/PLYLoader.js';
import { STLLoader } from 'three/examples/jsm/loaders/STLLoader.js';
import type { FileData } from '../../../core/wire/decoded-types.ts';
import { bufferOf, meshoptGltfLoader } from '../mesh/glb-mesh.ts';
import { texturePlane } from '../image/image-plane.ts';
import { meshMaterial } from '../mesh/mesh-object.ts';
import type { StageContent } from '../../stage/stage-content.ts';

/** Counts shown for a file. */
export type FileStats = Record<'vertices' | 'triangles' | 'points', number>;

/** A previewable file with its counts. */
export interface FileContent extends StageContent {
  stats: FileStats;
}

function extension(file: FileData): string {
  const dot = file.fileName.lastIndexOf('.');
  return dot >= 0 ? file.fileName.slice(dot + 1).toLowerCase() : '';
}

/** Swaps loader materials for ours (keeps vertex colours), and counts what is there. */
function normalise(root: THREE.Object3D, colour: THREE.Color | null): { stats: FileStats; materials: THREE.Material[] } {
  const stats: FileStats = { vertices: 0, triangles: 0, points: 0 };
  const materials: THREE.Material[] = [];
  root.traverse((node) => {
    if (node instanceof THREE.Mesh) {
      const geometry = node.geometry as THREE.BufferGeometry;
      if (!geometry.getAttribute('normal')) geometry.computeVertexNormals();
      const position = geometry.getAttribute('position');
      stats.vertices += position?.count ?? 0;
      stats.triangles += Math.floor((geometry.index?.count ?? position?.count ?? 0) / 3);
      const keep = Array.isArray(node.material) ? node.material : [node.material];
      const usesTextures = keep.some((m) => m instanceof THREE.MeshStandardMaterial && m.map);
      if (!usesTextures) {
        const material = meshMaterial(colour, !!geometry.getAttribute('color'));
        node.material = material;
        materials.push(material);
      }
    } else if (node instanceof THREE.Points) {
      stats.points += (node.geometry as THREE.BufferGeometry).getAttribute('position')?.count ?? 0;
    }
  });
  return { stats, materials };
}

function disposeTree(root: THREE.Object3D, extra: THREE.Material[]): void {
  root.traverse((node) => {
    if (node instanceof THREE.Mesh || node instanceof THREE.Points) {
      (node.geometry as THREE.BufferGeometry).dispose();
      const list = Array.isArray(node.material) ? node.material : [node.material];
      for (const m of list as THREE.Material[]) m.dispose();
    }
  });
  for (const m of extra) m.dispose();
}

async function parseModel(file: FileData, ext: string): Promise<THREE.Object3D | null> {
  switch (ext) {
    case 'obj':
      return new OBJLoader().parse(new TextDecoder().decode(file.bytes));
    case 'stl':
      return new THREE.Mesh(new STLLoader().parse(bufferOf(file.bytes)));
    case 'ply': {
      const geometry = new PLYLoader().parse(bufferOf(file.bytes));
      if (geometry.index === null && geometry.getAttribute('position').count % 3 !== 0) {
        return new THREE.Points(geometry, new THREE.PointsMaterial({ size: 0.01, vertexColors: !!geometry.getAttribute('color') }));
      }
      return new THREE.Mesh(geometry);
    }
    case 'glb':
    case 'gltf':
      return (await meshoptGltfLoader().parseAsync(bufferOf(file.bytes), '')).scene;
    default:
      return null;
  }
}

/**
 * Builds stage content for a static file.
 * @returns null when the file type cannot be previewed.
 */
export async function createFileObject(file: FileData, colour: THREE.Color | null = null): Promise<FileContent | null> {
  const ext = extension(file);
  if (file.contentType.startsWith('image/') && file.contentType !== 'image/svg+xml') {
    const bitmap = await createImageBitmap(new Blob([file.bytes as Uint8Array<ArrayBuffer>], { type: file.contentType }), {
      imageOrientation: 'flipY',
    });
    const texture = new THREE.Texture(bitmap);
    texture.colorSpace = THREE.SRGBColorSpace;
    texture.flipY = false;
    texture.needsUpdate = true;
    const content = texturePlane(texture, bitmap.width, bitmap.height);
    return { ...content, stats: { vertices: 0, triangles: 0, points: 0 } };
  }
  const root = await parseModel(file, ext);
  if (!root) return null;
  const { stats, materials } = normalise(root, colour);
  return { object: root, stats, dispose: () => disposeTree(root, materials) };
}
