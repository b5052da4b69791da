/**
 * @module avatar-shapes
 * The simple shapes a peer is drawn with, one unit large (scaled where they are placed): a
 * head is a ball with the frustum of what it sees in front (along its -z), a hand a small
 * block, a pointer a rod along -z one unit long with a dot at its end. All in the peer's
 * colour, unlit, so they read the same under any light.
 */
import * as THREE from 'three';

/** The frustum's far corners at z = -1 (a 4:3 view of about 60°). */
const CORNERS: [number, number][] = [
  [-0.6, -0.45],
  [0.6, -0.45],
  [0.6, 0.45],
  [-0.6, 0.45],
];

function lineMaterial(colour: THREE.Color): THREE.LineBasicMaterial {
  return new THREE.LineBasicMaterial({ color: colour });
}

function solidMaterial(colour: THREE.Color, opacity = 1): THREE.MeshBasicMaterial {
  return new THREE.MeshBasicMaterial({ color: colour, transparent: opacity < 1, opacity });
}

/** A head: a ball at the eye and the outline of its view (with a tick on top, so up reads). */
export function headShape(colour: THREE.Color): THREE.Group {
  const points: THREE.Vector3[] = [];
  const far = CORNERS.map(([x, y]) => new THREE.Vector3(x, y, -1));
  for (const [i, corner] of far.entries()) points.push(new THREE.Vector3(), corner, corner, far[(i + 1) % far.length]!);
  const tip = new THREE.Vector3(0, 0.65, -1);
  points.push(new THREE.Vector3(-0.2, 0.45, -1), tip, tip, new THREE.Vector3(0.2, 0.45, -1));
  const frustum = new THREE.LineSegments(new THREE.BufferGeometry().setFromPoints(points), lineMaterial(colour));
  const face = new THREE.Mesh(new THREE.PlaneGeometry(1.2, 0.9), solidMaterial(colour, 0.18));
  face.position.z = -1;
  face.material.side = THREE.DoubleSide;
  const ball = new THREE.Mesh(new THREE.SphereGeometry(0.22, 16, 12), solidMaterial(colour));
  const group = new THREE.Group();
  group.add(frustum, face, ball);
  group.name = 'head';
  return group;
}

/** A hand: a small block. */
export function handShape(colour: THREE.Color): THREE.Mesh {
  const hand = new THREE.Mesh(new THREE.BoxGeometry(0.35, 0.2, 0.45), solidMaterial(colour));
  hand.name = 'hand';
  return hand;
}

/** A pointer ray: a thin rod from the origin down -z (its length is its z scale, its thickness x and y) and a dot where it ends. */
export function pointerShape(colour: THREE.Color): { rod: THREE.Mesh; dot: THREE.Mesh } {
  const geometry = new THREE.CylinderGeometry(1, 1, 1, 8, 1, true).rotateX(Math.PI / 2).translate(0, 0, -0.5);
  const rod = new THREE.Mesh(geometry, solidMaterial(colour, 0.85));
  rod.name = 'pointer';
  const dot = new THREE.Mesh(new THREE.SphereGeometry(1, 12, 8), solidMaterial(colour));
  return { rod, dot };
}

/** Frees the geometries and materials under `root`. */
export function disposeShapes(root: THREE.Object3D): void {
  root.traverse((node) => {
    const drawn = node as THREE.Mesh;
    drawn.geometry?.dispose();
    const material = drawn.material as THREE.Material | THREE.Material[] | undefined;
    for (const one of Array.isArray(material) ? material : material ? [material] : []) one.dispose();
  });
}
