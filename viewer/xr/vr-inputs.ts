/**
 * @module vr-inputs
 * The two hands in VR, controllers or tracked hands: their models (loaded from the host's
 * `/viewer/xr-profiles/`, never from a CDN), a ray from each controller, the ray as a pointer
 * on the panel (trigger or pinch), a trigger off the panel for the annotation tools (`trigger`,
 * given the ray in the room), and grabbing the specimen (squeeze; or a pinch that neither of
 * them took, for hands). A thumbstick pushed forward or back scales the specimen.
 */
import * as THREE from 'three';
import { XRControllerModelFactory } from 'three/examples/jsm/webxr/XRControllerModelFactory.js';
import { XRHandModelFactory } from 'three/examples/jsm/webxr/XRHandModelFactory.js';
import type { GrabControls } from './grab-controls.ts';
import type { PanelPointer } from './panel-pointer.ts';

/** Where the host serves the shipped controller and hand models. */
export const XR_PROFILES_PATH = '/viewer/xr-profiles';
/** Thumbstick travel ignored around the centre. */
const DEAD_ZONE = 0.2;
/** Scale change per second at full thumbstick travel (×e^1.2 ≈ 3.3). */
const SCALE_RATE = 1.2;
const RAY_LENGTH = 2;

interface Slot {
  targetRay: THREE.XRTargetRaySpace;
  grip: THREE.XRGripSpace;
  hand: THREE.XRHandSpace;
  ray: THREE.Line;
  pointer: PanelPointer;
  source: XRInputSource | null;
  grabbing: boolean;
}

export interface VrInputsOptions {
  renderer: THREE.WebGLRenderer;
  scene: THREE.Scene;
  grab: GrabControls;
  /** A pointer on the panel for the hand with this index. */
  pointer(index: number): PanelPointer;
  /** Multiplies the specimen's scale (thumbstick). */
  scaleBy(factor: number): void;
  /** A trigger or pinch off the panel, with the hand's ray in world space: true when it was used. */
  trigger(ray: THREE.Raycaster): boolean;
}

function rayLine(): THREE.Line {
  const geometry = new THREE.BufferGeometry().setFromPoints([new THREE.Vector3(0, 0, 0), new THREE.Vector3(0, 0, -1)]);
  const line = new THREE.Line(geometry, new THREE.LineBasicMaterial({ color: 0x5cc8ff, transparent: true, opacity: 0.8 }));
  line.scale.z = RAY_LENGTH;
  return line;
}

export class VrInputs {
  readonly #slots: Slot[] = [];
  readonly #options: VrInputsOptions;
  readonly #group = new THREE.Group();

  constructor(options: VrInputsOptions) {
    this.#options = options;
    const controllerModels = new XRControllerModelFactory().setPath(XR_PROFILES_PATH);
    const handModels = new XRHandModelFactory().setPath(`${XR_PROFILES_PATH}/generic-hand/`);
    for (let index = 0; index < 2; index++) {
      const xr = options.renderer.xr;
      const slot: Slot = {
        targetRay: xr.getController(index),
        grip: xr.getControllerGrip(index),
        hand: xr.getHand(index),
        ray: rayLine(),
        pointer: options.pointer(index),
        source: null,
        grabbing: false,
      };
      slot.targetRay.add(slot.ray);
      slot.grip.add(controllerModels.createControllerModel(slot.grip));
      slot.hand.add(handModels.createHandModel(slot.hand, 'mesh'));
      this.#listen(slot);
      this.#group.add(slot.targetRay, slot.grip, slot.hand);
      this.#slots.push(slot);
    }
    options.scene.add(this.#group);
  }

  #grab(slot: Slot, on: boolean): void {
    if (on === slot.grabbing) return;
    slot.grabbing = on;
    if (on) this.#options.grab.grab(slot.grip.visible ? slot.grip : slot.targetRay);
    else {
      this.#options.grab.release(slot.grip);
      this.#options.grab.release(slot.targetRay);
    }
  }

  /** Lets go of what the hand holds or points at; it is no longer connected. */
  #drop(slot: Slot): void {
    slot.pointer.cancel();
    this.#grab(slot, false);
    slot.source = null;
  }

  #listen(slot: Slot): void {
    slot.targetRay.addEventListener('connected', (event) => {
      slot.source = event.data;
      // Tracked hands point by pinching; the ray is drawn for controllers only.
      slot.ray.visible = !event.data.hand;
    });
    slot.targetRay.addEventListener('disconnected', () => this.#drop(slot));
    slot.targetRay.addEventListener('selectstart', () => {
      if (slot.pointer.down() || this.#options.trigger(this.#ray(slot))) return;
      if (slot.source?.hand) this.#grab(slot, true);
    });
    slot.targetRay.addEventListener('selectend', () => {
      slot.pointer.up();
      if (slot.source?.hand) this.#grab(slot, false);
    });
    slot.targetRay.addEventListener('squeezestart', () => this.#grab(slot, true));
    slot.targetRay.addEventListener('squeezeend', () => this.#grab(slot, false));
  }

  /** The hand's target ray in world space (as the latest frame posed it). */
  #ray(slot: Slot): THREE.Raycaster {
    slot.targetRay.updateMatrixWorld(true);
    const ray = new THREE.Raycaster();
    ray.ray.origin.setFromMatrixPosition(slot.targetRay.matrixWorld);
    ray.ray.direction.set(0, 0, -1).transformDirection(slot.targetRay.matrixWorld);
    return ray;
  }

  /** The connected hands' target rays (world space), the right hand first, each saying whether it points at the panel. */
  hands(): { ray: THREE.Raycaster; onPanel: boolean }[] {
    const connected = this.#slots.filter((slot) => slot.source);
    connected.sort((a, b) => Number(b.source?.handedness === 'right') - Number(a.source?.handedness === 'right'));
    return connected.map((slot) => ({ ray: this.#ray(slot), onPanel: slot.pointer.distance !== null }));
  }

  /** Once per frame, after the poses updated: pointers, rays, thumbsticks, grabbing. */
  update(seconds: number): void {
    for (const slot of this.#slots) {
      if (!slot.source) continue;
      slot.targetRay.updateMatrixWorld(true);
      slot.grip.updateMatrixWorld(true);
      slot.pointer.move(slot.targetRay.matrixWorld);
      slot.ray.scale.z = slot.pointer.distance ?? RAY_LENGTH;
      const stick = slot.source.gamepad?.axes[3] ?? 0;
      if (Math.abs(stick) > DEAD_ZONE && !slot.pointer.engaged) this.#options.scaleBy(Math.exp(-stick * SCALE_RATE * seconds));
    }
    this.#options.grab.update();
  }

  /** Lets go of everything (the session ended). */
  reset(): void {
    for (const slot of this.#slots) this.#drop(slot);
    this.#options.grab.releaseAll();
  }
}
