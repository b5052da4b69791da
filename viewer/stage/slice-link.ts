/**
 * @module slice-link
 * The one point every volume's slices pass through. Slicing is the stage's, not a layer's (as
 * in napari and Neuroglancer): moving a slice of the scan moves the same slice of its labels, so
 * the segmentation lies on the image it was made from. The point is kept in the frame of the
 * stage's content root, so layers with other grids or affines cut at the same place.
 */
import type * as THREE from 'three';

export type SliceListener = (source: unknown) => void;

export class SliceLink {
  readonly #frame: THREE.Object3D;
  #point: THREE.Vector3 | null = null;
  readonly #listeners = new Set<SliceListener>();

  /** `frame`: the stage's content root. */
  constructor(frame: THREE.Object3D) {
    this.#frame = frame;
  }

  /** The point in world space (null before any volume set it). */
  worldPoint(): THREE.Vector3 | null {
    if (!this.#point) return null;
    this.#frame.updateWorldMatrix(true, false);
    return this.#frame.localToWorld(this.#point.clone());
  }

  /** Moves the point to `world` (a world-space point) and tells every other listener; `source` is not told. */
  set(world: THREE.Vector3, source: unknown): void {
    this.#frame.updateWorldMatrix(true, false);
    this.#point = this.#frame.worldToLocal(world.clone());
    for (const listener of this.#listeners) listener(source);
  }

  /** Calls `fn` after each move; returns the unsubscribe. */
  listen(fn: SliceListener): () => void {
    this.#listeners.add(fn);
    return () => this.#listeners.delete(fn);
  }
}
