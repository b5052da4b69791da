/**
 * @module stage
 * The three.js scene every result is shown in: a WebGL renderer (software GL works), a
 * perspective camera with OrbitControls, hemisphere + directional lights, a ground grid, and
 * auto-framing of whatever is shown. It renders on demand (after a change or while the
 * controls move), so an idle page costs no CPU.
 */
import * as THREE from 'three';
import { OrbitControls } from 'three/examples/jsm/controls/OrbitControls.js';
import { CameraRest } from './camera-rest.ts';
import type { RoomCamera, RoomView } from '../../../client/wire-types.ts';

/** Thrown when the browser cannot give us a WebGL context. */
export class WebGLUnavailableError extends Error {
  override name = 'WebGLUnavailableError';
}

/** True when a WebGL context can be created (checked without three.js). */
export function webglAvailable(): boolean {
  try {
    const canvas = document.createElement('canvas');
    return !!(canvas.getContext('webgl2') ?? canvas.getContext('webgl'));
  } catch {
    return false;
  }
}

/** Something shown on the stage, disposable when replaced. */
export interface StageContent {
  object: THREE.Object3D;
  /** 'front' looks straight at the XY plane (images, slices); 'orbit' from above at an angle. */
  view?: 'front' | 'orbit';
  dispose(): void;
  /** Shows the settings of a room's view this content has (window, colour map, opacity, mode). */
  applyView?(view: RoomView): void;
  /** Set by the viewer: told of each such setting the user changes on this content. */
  onViewChange?: (change: RoomView) => void;
}

export class Stage {
  readonly canvas: HTMLCanvasElement;
  readonly #renderer: THREE.WebGLRenderer;
  readonly #scene = new THREE.Scene();
  readonly #camera = new THREE.PerspectiveCamera(45, 1, 0.01, 1000);
  readonly #controls: OrbitControls;
  readonly #grid: THREE.GridHelper;
  /** Every content object hangs from it; identity on the page, placed in the room in VR (xr/). */
  readonly #contentRoot = new THREE.Group();
  readonly #beforeFrame = new Set<(frame: XRFrame | undefined) => void>();
  readonly #afterShow = new Set<() => void>();
  readonly #rest: CameraRest;
  #content: StageContent | null = null;
  /** How many times content was shown; a drawn frame says which showing it drew (`data-drawn`). */
  #shows = 0;
  #dirty = true;
  /** True while setCameraView moves the camera (not the user's move). */
  #applyingCamera = false;

  constructor(host: HTMLElement) {
    if (!webglAvailable()) throw new WebGLUnavailableError('WebGL is disabled or unsupported');
    try {
      // preserveDrawingBuffer keeps the last frame readable (screenshots, "save image").
      this.#renderer = new THREE.WebGLRenderer({ antialias: true, preserveDrawingBuffer: true });
    } catch (error) {
      throw new WebGLUnavailableError(error instanceof Error ? error.message : String(error));
    }
    this.#renderer.setPixelRatio(Math.min(window.devicePixelRatio, 2));
    this.#renderer.outputColorSpace = THREE.SRGBColorSpace;
    this.#renderer.toneMapping = THREE.ACESFilmicToneMapping;
    this.canvas = this.#renderer.domElement;
    this.canvas.classList.add('stage-canvas');
    host.appendChild(this.canvas);

    this.#scene.background = new THREE.Color(0x0b0f15);
    this.#scene.add(new THREE.HemisphereLight(0xdfefff, 0x202634, 1.1));
    const key = new THREE.DirectionalLight(0xffffff, 2.6);
    key.position.set(3, 5, 4);
    this.#scene.add(key);
    const rim = new THREE.DirectionalLight(0x6aa8ff, 0.9);
    rim.position.set(-4, 2, -3);
    this.#scene.add(rim);
    this.#grid = new THREE.GridHelper(10, 20, 0x2a3442, 0x18202b);
    this.#scene.add(this.#grid, this.#contentRoot);
    this.#renderer.xr.enabled = true;

    this.#camera.position.set(3, 2, 4);
    this.#controls = new OrbitControls(this.#camera, this.canvas);
    this.#controls.enableDamping = true;
    this.#controls.addEventListener('change', () => this.invalidate());
    this.#rest = new CameraRest(this.#controls, this.canvas);
    // Damping never quite ends: it moves the camera less and less without telling. At rest the
    // rest of it is spent at once, so the pose a link or a room gets is the one left on screen.
    this.#rest.onRest(() => this.#spendMomentum());

    new ResizeObserver(() => this.#resize(host)).observe(host);
    this.#resize(host);
    this.#renderer.setAnimationLoop(this.#loop);
  }

  /** Replaces what is shown (disposing the previous content) and frames it; `keepView` keeps the camera (a refined view of the same thing). */
  show(content: StageContent | null, keepView = false): void {
    if (this.#content) {
      this.#contentRoot.remove(this.#content.object);
      this.#content.dispose();
    }
    this.#content = content;
    this.canvas.dataset.shows = String(++this.#shows);
    if (content) {
      this.#contentRoot.add(content.object);
      if (!keepView) this.frame(content.view ?? 'orbit');
      for (const fn of this.#afterShow) fn();
    }
    this.invalidate();
  }

  /** Fits the camera to the content's bounding sphere. */
  frame(view: 'front' | 'orbit' = 'orbit'): void {
    if (!this.#content) return;
    const box = new THREE.Box3().setFromObject(this.#content.object);
    if (box.isEmpty()) return;
    const sphere = box.getBoundingSphere(new THREE.Sphere());
    const radius = Math.max(sphere.radius, 1e-6);
    const fov = THREE.MathUtils.degToRad(this.#camera.fov);
    const distance = (radius / Math.sin(fov / 2)) * 1.15;
    const direction = view === 'front' ? new THREE.Vector3(0, 0, 1) : new THREE.Vector3(0.8, 0.55, 1).normalize();
    this.#camera.position.copy(sphere.center).addScaledVector(direction, distance);
    this.#camera.near = distance / 100;
    this.#camera.far = distance * 100;
    this.#camera.updateProjectionMatrix();
    this.#controls.target.copy(sphere.center);
    this.#controls.update();
    // Ground grid under the object, scaled to it.
    const size = radius * 4;
    this.#grid.scale.setScalar(size / 10);
    this.#grid.position.set(sphere.center.x, box.min.y - radius * 0.02, sphere.center.z);
    this.invalidate();
  }

  /** The renderer, scene and content root, for the VR mode (xr/vr-mode.ts). */
  get renderer(): THREE.WebGLRenderer {
    return this.#renderer;
  }

  get scene(): THREE.Scene {
    return this.#scene;
  }

  get contentRoot(): THREE.Group {
    return this.#contentRoot;
  }

  get content(): StageContent | null {
    return this.#content;
  }

  /** Calls `fn` before each frame is drawn (every frame while a VR session runs); returns the unsubscribe. */
  onBeforeFrame(fn: (frame: XRFrame | undefined) => void): () => void {
    this.#beforeFrame.add(fn);
    return () => this.#beforeFrame.delete(fn);
  }

  /** The camera as a room shares it (rounded, so a repeat compares equal). */
  cameraView(): RoomCamera {
    const round = (v: THREE.Vector3): [number, number, number] => [v.x, v.y, v.z].map((n) => Number(n.toFixed(4))) as [number, number, number];
    return { position: round(this.#camera.position), target: round(this.#controls.target), up: round(this.#camera.up) };
  }

  /** Moves the camera to a room's camera (not while a VR session runs: the headset leads then). */
  setCameraView(view: RoomCamera): void {
    const ok = (v: unknown): v is [number, number, number] => Array.isArray(v) && v.length === 3 && v.every((n) => typeof n === 'number' && Number.isFinite(n));
    if (this.#renderer.xr.isPresenting || !ok(view.position) || !ok(view.target) || !ok(view.up)) return;
    this.#applyingCamera = true;
    this.#controls.enableDamping = false;
    this.#camera.position.fromArray(view.position);
    this.#camera.up.fromArray(view.up);
    this.#controls.target.fromArray(view.target);
    const distance = this.#camera.position.distanceTo(this.#controls.target) || 1;
    this.#camera.near = Math.min(this.#camera.near, distance / 100);
    this.#camera.far = Math.max(this.#camera.far, distance * 100);
    this.#camera.updateProjectionMatrix();
    this.#controls.update();
    this.#controls.enableDamping = true;
    this.#applyingCamera = false;
    // Where a room put the camera, readable from outside (tests, styles).
    this.canvas.dataset.roomCamera = JSON.stringify(this.cameraView());
    this.invalidate();
  }

  /**
   * Calls `fn` as the user moves the camera (a drag or a wheel turn, and the glide that damping
   * adds after it), never for setCameraView.
   */
  onCameraMoved(fn: () => void): void {
    // Damping carries the camera on after the pointer lets go, until it comes to rest (counted
    // in frames, camera-rest.ts): the glide is the user's move too, and its rest the last word.
    this.#controls.addEventListener('change', () => {
      if (this.#rest.moving && !this.#applyingCamera) fn();
    });
    this.#controls.addEventListener('end', fn);
    this.#rest.onRest(fn);
  }

  /** The camera as `[position x, y, z, target x, y, z]` (what a shared link carries). */
  cameraPose(): number[] {
    return [...this.#camera.position.toArray(), ...this.#controls.target.toArray()];
  }

  /** Places the camera at a pose from cameraPose(). */
  setCameraPose(pose: readonly number[]): void {
    this.#camera.position.fromArray(pose, 0);
    this.#controls.target.fromArray(pose, 3);
    this.#controls.update();
    this.invalidate();
  }

  /** Calls `fn` each time content has been shown and framed. */
  onShown(fn: () => void): void {
    this.#afterShow.add(fn);
  }

  /**
   * Calls `fn` once the camera has come to rest after the user moved it (damping carries it on
   * a little after the pointer is released).
   */
  onCameraRest(fn: () => void): void {
    this.#rest.onRest(fn);
  }

  /** Puts the camera back where showing the content put it (the "reset camera" control). */
  resetCamera(): void {
    // Spend what is left of a drag's momentum first, or damping would carry the camera on.
    this.#spendMomentum();
    this.frame(this.#content?.view ?? 'orbit');
  }

  #spendMomentum(): void {
    this.#controls.enableDamping = false;
    this.#controls.update();
    this.#controls.enableDamping = true;
  }

  /** The nearest hit of `objects` under a point of the page (client pixels), or null. */
  pick(clientX: number, clientY: number, objects: THREE.Object3D[]): THREE.Intersection | null {
    const rect = this.canvas.getBoundingClientRect();
    const ndc = new THREE.Vector2(((clientX - rect.left) / rect.width) * 2 - 1, -((clientY - rect.top) / rect.height) * 2 + 1);
    const ray = new THREE.Raycaster();
    ray.setFromCamera(ndc, this.#camera);
    return ray.intersectObjects(objects, false)[0] ?? null;
  }

  /** Asks for a new frame. */
  invalidate(): void {
    this.#dirty = true;
  }

  #resize(host: HTMLElement): void {
    const width = Math.max(1, host.clientWidth);
    const height = Math.max(1, host.clientHeight);
    this.#renderer.setSize(width, height, false);
    this.#camera.aspect = width / height;
    this.#camera.updateProjectionMatrix();
    this.invalidate();
  }

  // The renderer's animation loop is the page's requestAnimationFrame, or the headset's frame
  // loop while a VR session runs (where every frame is drawn: the head always moves).
  #loop = (_time: number, frame?: XRFrame): void => {
    const presenting = this.#renderer.xr.isPresenting;
    // update() applies damping and fires 'change' (→ invalidate) while the camera still moves.
    if (!presenting) this.#rest.frame(this.#controls.update());
    if (!this.#dirty && !presenting) return;
    this.#dirty = false;
    this.#grid.visible = !presenting && this.#content !== null && this.#content.view !== 'front';
    for (const fn of this.#beforeFrame) fn(frame);
    this.#renderer.render(this.#scene, this.#camera);
    this.canvas.dataset.frames = String(Number(this.canvas.dataset.frames ?? 0) + 1);
    // Readable from outside (tests): the latest showing is on the canvas once this equals data-shows.
    this.canvas.dataset.drawn = String(this.#shows);
  };

  /** Stops rendering and frees GPU memory. */
  dispose(): void {
    this.#renderer.setAnimationLoop(null);
    this.show(null);
    this.#controls.dispose();
    this.#renderer.dispose();
  }
}
