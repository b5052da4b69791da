/**
 * @module camera-rest
 * When the camera comes to rest after the user moved it: damping carries it on for some frames
 * after the pointer lets go, and the first frame in which the controls no longer move it is
 * the rest. Counted in frames, not time, so a busy machine drawing fewer frames a second comes
 * to the same rest. The canvas says where the camera is (`data-camera`: `moving` or `still`),
 * for tests and styles.
 */
import type { OrbitControls } from 'three/examples/jsm/controls/OrbitControls.js';

export class CameraRest {
  readonly #canvas: HTMLElement;
  readonly #listeners = new Set<() => void>();
  /** The user holds the camera (a drag or a wheel turn under way). */
  #held = false;
  /** Let go, and not yet at rest. */
  #gliding = false;

  constructor(controls: OrbitControls, canvas: HTMLElement) {
    this.#canvas = canvas;
    canvas.dataset.camera = 'still';
    controls.addEventListener('start', () => {
      this.#held = true;
      this.#gliding = false;
      canvas.dataset.camera = 'moving';
    });
    controls.addEventListener('end', () => {
      this.#held = false;
      this.#gliding = true;
    });
  }

  /** The user is moving the camera: holding it, or it still glides after they let go. */
  get moving(): boolean {
    return this.#held || this.#gliding;
  }

  /** Calls `fn` each time the camera comes to rest after the user moved it. */
  onRest(fn: () => void): void {
    this.#listeners.add(fn);
  }

  /** Told of each animation frame: whether the controls' update moved the camera in it. */
  frame(moved: boolean): void {
    if (this.#held || !this.#gliding || moved) return;
    this.#gliding = false;
    this.#canvas.dataset.camera = 'still';
    for (const fn of this.#listeners) fn();
  }
}
