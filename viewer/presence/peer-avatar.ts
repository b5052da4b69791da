/**
 * @module peer-avatar
 * One other peer as drawn: its head, its hands and its pointer ray, placed from its newest
 * pose. A pose is in the room's frame; `toWorld` is where that frame is now (the content root:
 * as it is on the page, placed on the table in a headset). `size` is a head's size in the
 * world (a share of what the stage shows on a page, a real head's in a headset), so the
 * shapes keep their size however the content was placed. A part the pose leaves out is hidden.
 * The shapes are one unit large (scaled where they are placed): a head is a ball with the
 * frustum of what it sees in front (along its -z), a hand a small block, a pointer a rod along
 * -z one unit long with a dot at its end. All in the peer's colour, unlit, so they read the
 * same under any light.
 */
import * as THREE from 'three';
import type { Placement, Pose } from '../../core/wire/live-types.ts';

/** The frustum's far corners at z = -1 (a 4:3 view of about 60°). */
const CORNERS: [number, number][] = [
  [-0.6, -0.45],
  [0.6, -0.45],
  [0.6, 0.45],
  [-0.6, 0.45],
];

function solidMaterial(colour: THREE.Color, opacity = 1): THREE.MeshBasicMaterial {
  return new THREE.MeshBasicMaterial({ color: colour, transparent: opacity < 1, opacity });
}

/** A head: a ball at the eye and the outline of its view (with a tick on top, so up reads). */
function headShape(colour: THREE.Color): THREE.Group {
  const points: THREE.Vector3[] = [];
  const far = CORNERS.map(([x, y]) => new THREE.Vector3(x, y, -1));
  for (const [i, corner] of far.entries()) points.push(new THREE.Vector3(), corner, corner, far[(i + 1) % far.length]!);
  const tip = new THREE.Vector3(0, 0.65, -1);
  points.push(new THREE.Vector3(-0.2, 0.45, -1), tip, tip, new THREE.Vector3(0.2, 0.45, -1));
  const frustum = new THREE.LineSegments(new THREE.BufferGeometry().setFromPoints(points), new THREE.LineBasicMaterial({ color: colour }));
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
function handShape(colour: THREE.Color): THREE.Mesh {
  const hand = new THREE.Mesh(new THREE.BoxGeometry(0.35, 0.2, 0.45), solidMaterial(colour));
  hand.name = 'hand';
  return hand;
}

/** A pointer ray: a thin rod from the origin down -z (its length is its z scale, its thickness x and y) and a dot where it ends. */
function pointerShape(colour: THREE.Color): { rod: THREE.Mesh; dot: THREE.Mesh } {
  const geometry = new THREE.CylinderGeometry(1, 1, 1, 8, 1, true).rotateX(Math.PI / 2).translate(0, 0, -0.5);
  const rod = new THREE.Mesh(geometry, solidMaterial(colour, 0.85));
  rod.name = 'pointer';
  const dot = new THREE.Mesh(new THREE.SphereGeometry(1, 12, 8), solidMaterial(colour));
  return { rod, dot };
}

/** Frees the geometries and materials under `root`. */
function disposeShapes(root: THREE.Object3D): void {
  root.traverse((node) => {
    const drawn = node as THREE.Mesh;
    drawn.geometry?.dispose();
    const material = drawn.material as THREE.Material | THREE.Material[] | undefined;
    for (const one of Array.isArray(material) ? material : material ? [material] : []) one.dispose();
  });
}

/** A hand's size, and a pointer's thickness and end dot, as shares of a head's. */
const HAND = 0.7;
const ROD = 0.03;
const DOT = 0.12;

/** Where a ray placed in the world goes and how far it reaches (`length`: the world distance). */
export type RayReach = (origin: THREE.Vector3, direction: THREE.Vector3) => number;

export class PeerAvatar {
  readonly root = new THREE.Group();
  readonly #head: THREE.Group;
  readonly #hands: { left: THREE.Mesh; right: THREE.Mesh };
  readonly #rod: THREE.Mesh;
  readonly #dot: THREE.Mesh;
  /** The head's world position and the pointer's ends, as last placed (for the probe). */
  head: THREE.Vector3 | null = null;
  pointer: { from: THREE.Vector3; to: THREE.Vector3 } | null = null;
  hands: ('left' | 'right')[] = [];

  constructor(colour: string) {
    const tint = new THREE.Color(colour);
    this.#head = headShape(tint);
    this.#hands = { left: handShape(tint), right: handShape(tint) };
    const { rod, dot } = pointerShape(tint);
    this.#rod = rod;
    this.#dot = dot;
    this.root.add(this.#head, this.#hands.left, this.#hands.right, rod, dot);
  }

  /** Places every part from `pose`. */
  place(pose: Pose, toWorld: THREE.Matrix4, size: number, reach: RayReach): void {
    this.head = placeOn(this.#head, pose.head, toWorld, size);
    this.hands = [];
    for (const side of ['left', 'right'] as const) {
      if (placeOn(this.#hands[side], pose.hands?.[side], toWorld, size * HAND)) this.hands.push(side);
    }
    this.pointer = null;
    const from = placeOn(this.#rod, pose.pointer, toWorld, 1);
    this.#dot.visible = from !== null;
    if (!from) return;
    const direction = new THREE.Vector3(0, 0, -1).applyQuaternion(this.#rod.quaternion);
    const length = reach(from, direction);
    this.#rod.scale.set(size * ROD, size * ROD, length);
    this.#dot.scale.setScalar(size * DOT);
    const to = from.clone().addScaledVector(direction, length);
    this.#dot.position.copy(to);
    this.pointer = { from, to };
  }

  /**
   * Hides the head while it is within `within` of `eye` (a page sharing the room's camera has
   * every other page's camera at its own eye, where the frustum would tint the whole view).
   * @returns whether that changed what is drawn.
   */
  hideHeadNear(eye: THREE.Vector3, within: number): boolean {
    const shown = this.head !== null && this.head.distanceTo(eye) > within;
    if (shown === this.#head.visible) return false;
    this.#head.visible = shown;
    return true;
  }

  /** Whether any part of it is drawn: a head away from this page's eye, a hand or a pointer. */
  get drawsAnything(): boolean {
    return this.root.visible && (this.#head.visible || this.hands.length > 0 || this.pointer !== null);
  }

  /** The head is drawn (it is known and not at this page's eye). */
  get headShown(): boolean {
    return this.#head.visible;
  }

  dispose(): void {
    this.root.removeFromParent();
    disposeShapes(this.root);
  }
}

/** Puts `object` at `placement` (room frame) in the world, `size` large; hidden (null) without one. */
function placeOn(object: THREE.Object3D, placement: Placement | undefined, toWorld: THREE.Matrix4, size: number): THREE.Vector3 | null {
  object.visible = placement !== undefined;
  if (!placement) return null;
  const { position, orientation } = inWorld(placement, toWorld);
  object.position.copy(position);
  object.quaternion.copy(orientation);
  object.scale.setScalar(size);
  return position.clone();
}

/** Where `placement` (room frame) is in the world, `toWorld` placing the room frame there. */
export function inWorld(placement: Placement, toWorld: THREE.Matrix4): { position: THREE.Vector3; orientation: THREE.Quaternion } {
  const { position: p, orientation: q } = placement;
  const local = new THREE.Matrix4().compose(new THREE.Vector3(...p), new THREE.Quaternion(...q).normalize(), new THREE.Vector3(1, 1, 1));
  const position = new THREE.Vector3();
  const orientation = new THREE.Quaternion();
  toWorld.clone().multiply(local).decompose(position, orientation, new THREE.Vector3());
  return { position, orientation };
}
