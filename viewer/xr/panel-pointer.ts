/**
 * @module panel-pointer
 * A controller's ray as a pointer on the uikit panel. uikit components listen for W3C-style
 * pointer events on themselves but bring no event system, so this casts the ray against the
 * panel's interactive components each frame and dispatches `pointerover`/`pointerout`,
 * `pointermove`, `pointerdown`, `pointerup` and `click` to the nearest one, bubbling to its
 * ancestors. A pressed pointer keeps its target (pointer capture) and moves along its plane,
 * so a slider follows the ray even when it slips off the track.
 */
import type { Component } from '@pmndrs/uikit';
import * as THREE from 'three';

/** The fields uikit keeps on components for pointer event systems. */
type Interactive = THREE.Object3D & { pointerEvents?: 'none' | 'auto' | 'listener'; interactableDescendants?: THREE.Object3D[] };

interface Hit {
  object: THREE.Object3D;
  point: THREE.Vector3;
  distance: number;
}

function depth(object: THREE.Object3D): number {
  let n = 0;
  for (let o: THREE.Object3D | null = object; o; o = o.parent) n++;
  return n;
}

export class PanelPointer {
  readonly #root: Component;
  readonly #pointerId: number;
  readonly #raycaster = new THREE.Raycaster();
  #hovered: Hit | null = null;
  #captured: Hit | null = null;

  constructor(root: Component, pointerId: number) {
    this.#root = root;
    this.#pointerId = pointerId;
  }

  /** True while the ray rests on the panel or holds a control. */
  get engaged(): boolean {
    return this.#hovered !== null || this.#captured !== null;
  }

  /** How far along the ray the panel is (for drawing the ray), or null. */
  get distance(): number | null {
    return (this.#captured ?? this.#hovered)?.distance ?? null;
  }

  /** Casts the ray (`rayMatrix`: the target-ray space, looking down -z) and sends move, over and out. */
  move(rayMatrix: THREE.Matrix4): void {
    this.#raycaster.ray.origin.setFromMatrixPosition(rayMatrix);
    this.#raycaster.ray.direction.set(0, 0, -1).transformDirection(rayMatrix);
    if (this.#captured) {
      const hit = this.#onPlane(this.#captured.object);
      if (hit) {
        this.#captured = hit;
        this.#dispatch('pointermove', hit);
      }
      return;
    }
    const hit = this.#cast();
    if (hit?.object !== this.#hovered?.object) {
      if (this.#hovered) this.#dispatch('pointerout', this.#hovered);
      if (hit) this.#dispatch('pointerover', hit);
    }
    this.#hovered = hit;
    if (hit) this.#dispatch('pointermove', hit);
  }

  /** The trigger went down: true when the panel took it. */
  down(): boolean {
    if (!this.#hovered) return false;
    this.#captured = this.#hovered;
    this.#dispatch('pointerdown', this.#captured);
    return true;
  }

  /** The trigger came up: `pointerup`, and `click` when still on the control it went down on. */
  up(): void {
    const captured = this.#captured;
    if (!captured) return;
    this.#captured = null;
    this.#dispatch('pointerup', captured);
    const hit = this.#cast();
    if (hit && (hit.object === captured.object || isAncestor(captured.object, hit.object))) this.#dispatch('click', hit);
  }

  /** Ends everything (the controller went away). */
  cancel(): void {
    if (this.#captured) this.#dispatch('pointerup', this.#captured);
    if (this.#hovered) this.#dispatch('pointerout', this.#hovered);
    this.#captured = null;
    this.#hovered = null;
  }

  #cast(): Hit | null {
    const root = this.#root as Interactive;
    if (!root.visible) return null;
    const candidates = [root, ...(root.interactableDescendants ?? [])].filter((o) => (o as Interactive).pointerEvents !== 'none');
    const hits = this.#raycaster.intersectObjects(candidates, false);
    if (hits.length === 0) return null;
    // Panels are coplanar: of the hits at the nearest distance, the innermost component is on top.
    const nearest = hits[0]!.distance;
    const top = hits.filter((h) => h.distance - nearest < 1e-4).sort((a, b) => depth(b.object) - depth(a.object))[0]!;
    return { object: top.object, point: top.point.clone(), distance: top.distance };
  }

  #onPlane(object: THREE.Object3D): Hit | null {
    const normal = new THREE.Vector3(0, 0, 1).transformDirection(object.matrixWorld);
    const plane = new THREE.Plane().setFromNormalAndCoplanarPoint(normal, new THREE.Vector3().setFromMatrixPosition(object.matrixWorld));
    const point = this.#raycaster.ray.intersectPlane(plane, new THREE.Vector3());
    return point ? { object, point, distance: point.distanceTo(this.#raycaster.ray.origin) } : null;
  }

  #dispatch(type: 'pointerover' | 'pointerout' | 'pointermove' | 'pointerdown' | 'pointerup' | 'click', hit: Hit): void {
    let stopped = false;
    const event = {
      type,
      object: hit.object,
      point: hit.point,
      distance: hit.distance,
      pointerId: this.#pointerId,
      stopPropagation: () => (stopped = true),
    };
    for (let target: THREE.Object3D | null = hit.object; target && !stopped; target = target.parent) {
      (target as THREE.Object3D<THREE.Object3DEventMap>).dispatchEvent(event as never);
      if (target === this.#root) break;
    }
  }
}

function isAncestor(ancestor: THREE.Object3D, object: THREE.Object3D): boolean {
  for (let o: THREE.Object3D | null = object; o; o = o.parent) if (o === ancestor) return true;
  return false;
}
