/**
 * @module grab-controls
 * Moving, turning and scaling the specimen with the hands. One grabbing hand (a controller's
 * squeeze, or a tracked hand's pinch away from the panel) carries the specimen rigidly: it
 * follows the hand's position and rotation. Two grabbing hands scale it by the change of the
 * distance between them, turn it about the vertical by the turn of the line between them, and
 * move it with their midpoint. A hand let go hands over to the other one without a jump.
 */
import * as THREE from 'three';
import { MAX_SCALE, MIN_SCALE } from './specimen-placement.ts';

interface Start {
  root: THREE.Matrix4;
  /** One hand: the inverse of its grip pose at the start. */
  inverseGrip?: THREE.Matrix4;
  /** Two hands: midpoint, distance and heading of the line between them at the start. */
  mid?: THREE.Vector3;
  distance?: number;
  heading?: number;
}

const UP = new THREE.Vector3(0, 1, 0);

/** Two hands' midpoint, the distance between them (a millimetre at least) and the heading of the line from `a` to `b`. */
function between(a: THREE.Object3D, b: THREE.Object3D): Required<Pick<Start, 'mid' | 'distance' | 'heading'>> {
  const pa = new THREE.Vector3().setFromMatrixPosition(a.matrixWorld);
  const pb = new THREE.Vector3().setFromMatrixPosition(b.matrixWorld);
  const heading = Math.atan2(pb.x - pa.x, pb.z - pa.z);
  return { mid: pa.clone().add(pb).multiplyScalar(0.5), distance: Math.max(pa.distanceTo(pb), 1e-3), heading };
}

export class GrabControls {
  readonly #root: THREE.Object3D;
  /** The grip spaces holding the specimen, in the order they grabbed. */
  #holding: THREE.Object3D[] = [];
  #start: Start | null = null;

  constructor(root: THREE.Object3D) {
    this.#root = root;
  }

  /** True while at least one hand holds the specimen. */
  get active(): boolean {
    return this.#holding.length > 0;
  }

  grab(grip: THREE.Object3D): void {
    if (this.#holding.includes(grip)) return;
    this.#holding.push(grip);
    this.#restart();
  }

  release(grip: THREE.Object3D): void {
    const before = this.#holding.length;
    this.#holding = this.#holding.filter((g) => g !== grip);
    if (this.#holding.length !== before) this.#restart();
  }

  releaseAll(): void {
    this.#holding = [];
    this.#start = null;
  }

  /** Applies the hands' motion since the grab; call once per frame after the poses updated. */
  update(): void {
    const start = this.#start;
    const [a, b] = this.#holding;
    if (!start || !a) return;
    let next: THREE.Matrix4;
    if (!b) {
      next = a.matrixWorld.clone().multiply(start.inverseGrip!).multiply(start.root);
    } else {
      const { mid, distance, heading } = between(a, b);
      const startScale = start.root.getMaxScaleOnAxis();
      const limited = THREE.MathUtils.clamp(distance / start.distance!, MIN_SCALE / startScale, MAX_SCALE / startScale);
      next = new THREE.Matrix4()
        .makeTranslation(mid.x, mid.y, mid.z)
        .multiply(new THREE.Matrix4().makeRotationAxis(UP, heading - start.heading!))
        .multiply(new THREE.Matrix4().makeScale(limited, limited, limited))
        .multiply(new THREE.Matrix4().makeTranslation(-start.mid!.x, -start.mid!.y, -start.mid!.z))
        .multiply(start.root);
    }
    next.decompose(this.#root.position, this.#root.quaternion, this.#root.scale);
    this.#root.updateMatrixWorld(true);
  }

  #restart(): void {
    const [a, b] = this.#holding;
    if (!a) {
      this.#start = null;
      return;
    }
    this.#root.updateMatrix();
    const root = this.#root.matrix.clone();
    this.#start = b ? { root, ...between(a, b) } : { root, inverseGrip: a.matrixWorld.clone().invert() };
  }
}
