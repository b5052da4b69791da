/**
 * @module stage-camera
 * The stage's camera and its orbit controls: framing a box, the camera as a room shares it (and
 * as a link carries it), and hearing the user move it. Nothing here draws; stage.ts renders
 * with `camera` and asks for a frame on every `change`.
 *
 * When the camera comes to rest after the user moved it: damping carries it on for some frames
 * after the pointer lets go, and the first frame in which the controls no longer move it is
 * the rest. Counted in frames, not time, so a busy machine drawing fewer frames a second comes
 * to the same rest. The canvas says where the camera is (`data-camera`: `moving` or `still`),
 * for tests and styles.
 */
import * as THREE from 'three';
import { OrbitControls } from 'three/examples/jsm/controls/OrbitControls.js';
import type { RoomCamera } from '../../core/wire/room-types.ts';

type Triple = [number, number, number];

export class StageCamera {
  readonly camera = new THREE.PerspectiveCamera(45, 1, 0.01, 1000);
  readonly controls: OrbitControls;
  readonly #canvas: HTMLElement;
  readonly #restListeners = new Set<() => void>();
  /** The user holds the camera (a drag or a wheel turn under way). */
  #held = false;
  /** Let go, and not yet at rest. */
  #gliding = false;
  /** True while setCameraView moves the camera (not the user's move). */
  #applying = false;

  constructor(canvas: HTMLCanvasElement, changed: () => void) {
    this.camera.position.set(3, 2, 4);
    this.controls = new OrbitControls(this.camera, canvas);
    this.controls.enableDamping = true;
    this.controls.addEventListener('change', changed);
    // A drag or wheel turn starting asks for frames too: damping moves the camera in them.
    this.controls.addEventListener('start', changed);
    this.#canvas = canvas;
    canvas.dataset.camera = 'still';
    this.controls.addEventListener('start', () => {
      this.#held = true;
      this.#gliding = false;
      canvas.dataset.camera = 'moving';
    });
    this.controls.addEventListener('end', () => {
      this.#held = false;
      this.#gliding = true;
    });
    // Damping never quite ends: it moves the camera less and less without telling. At rest the
    // rest of it is spent at once, so the pose a link or a room gets is the one left on screen.
    this.onRest(() => this.stopGlide());
  }

  /** The user is moving the camera: holding it, or it still glides after they let go. */
  get moving(): boolean {
    return this.#held || this.#gliding;
  }

  /** Calls `fn` each time the camera comes to rest after the user moved it. */
  onRest(fn: () => void): void {
    this.#restListeners.add(fn);
  }

  /**
   * Applies damping (a 'change' while the camera still moves); once a frame, outside VR. The
   * first frame in which it moves nothing after a glide is the rest.
   */
  update(): void {
    const moved = this.controls.update();
    if (this.#held || !this.#gliding || moved) return;
    this.#gliding = false;
    this.#canvas.dataset.camera = 'still';
    for (const fn of this.#restListeners) fn();
  }

  /** Fits the camera to `box` ('front' looks straight at the XY plane, 'orbit' from above at an angle); null when the box is empty. */
  frame(box: THREE.Box3, view: 'front' | 'orbit'): THREE.Sphere | null {
    if (box.isEmpty()) return null;
    const sphere = box.getBoundingSphere(new THREE.Sphere());
    const radius = Math.max(sphere.radius, 1e-6);
    const fov = THREE.MathUtils.degToRad(this.camera.fov);
    const distance = (radius / Math.sin(fov / 2)) * 1.15;
    const direction = view === 'front' ? new THREE.Vector3(0, 0, 1) : new THREE.Vector3(0.8, 0.55, 1).normalize();
    this.camera.position.copy(sphere.center).addScaledVector(direction, distance);
    this.camera.near = distance / 100;
    this.camera.far = distance * 100;
    this.camera.updateProjectionMatrix();
    this.controls.target.copy(sphere.center);
    this.controls.update();
    return sphere;
  }

  /** Spends what is left of a drag's momentum, so damping does not carry the camera on. */
  stopGlide(): void {
    this.controls.enableDamping = false;
    this.controls.update();
    this.controls.enableDamping = true;
  }

  /** The camera as a room shares it (rounded, so a repeat compares equal). */
  view(): RoomCamera {
    const round = (v: THREE.Vector3): Triple => [v.x, v.y, v.z].map((n) => Number(n.toFixed(4))) as Triple;
    return { position: round(this.camera.position), target: round(this.controls.target), up: round(this.camera.up) };
  }

  /** Moves the camera to a room's camera; false when the view is malformed. */
  setView(view: RoomCamera): boolean {
    const ok = (v: unknown): v is Triple =>
      Array.isArray(v) && v.length === 3 && v.every((n) => typeof n === 'number' && Number.isFinite(n));
    if (!ok(view.position) || !ok(view.target) || !ok(view.up)) return false;
    this.#applying = true;
    this.controls.enableDamping = false;
    this.camera.position.fromArray(view.position);
    this.camera.up.fromArray(view.up);
    this.controls.target.fromArray(view.target);
    const distance = this.camera.position.distanceTo(this.controls.target) || 1;
    this.camera.near = Math.min(this.camera.near, distance / 100);
    this.camera.far = Math.max(this.camera.far, distance * 100);
    this.camera.updateProjectionMatrix();
    this.controls.update();
    this.controls.enableDamping = true;
    this.#applying = false;
    return true;
  }

  /**
   * Calls `fn` as the user moves the camera (a drag or a wheel turn, and the glide that damping
   * adds after it), never for setView.
   */
  onMoved(fn: () => void): void {
    // Damping carries the camera on after the pointer lets go, until it comes to rest (counted
    // in frames): the glide is the user's move too, and its rest the last word.
    this.controls.addEventListener('change', () => {
      if (this.moving && !this.#applying) fn();
    });
    this.controls.addEventListener('end', fn);
    this.onRest(fn);
  }

  /** The camera as `[position x, y, z, target x, y, z]` (what a shared link carries). */
  pose(): number[] {
    return [...this.camera.position.toArray(), ...this.controls.target.toArray()];
  }

  /** Places the camera at a pose from pose(). */
  setPose(pose: readonly number[]): void {
    this.camera.position.fromArray(pose, 0);
    this.controls.target.fromArray(pose, 3);
    this.controls.update();
  }

  /** The view ray through a point of the canvas (client pixels). */
  rayAt(canvas: HTMLCanvasElement, clientX: number, clientY: number): THREE.Raycaster {
    const rect = canvas.getBoundingClientRect();
    const ndc = new THREE.Vector2(((clientX - rect.left) / rect.width) * 2 - 1, -((clientY - rect.top) / rect.height) * 2 + 1);
    const ray = new THREE.Raycaster();
    ray.setFromCamera(ndc, this.camera);
    return ray;
  }

  resize(width: number, height: number): void {
    this.camera.aspect = width / height;
    this.camera.updateProjectionMatrix();
  }
}
