/**
 * @module stage
 * The three.js scene every result is shown in: a WebGL renderer (software GL works), a
 * perspective camera with orbit controls (stage-camera.ts), hemisphere + directional lights, a
 * ground grid, and the layers (stage-layers.ts): many contents in one physical frame, drawn
 * with depth. Before a frame that has a ray-marched volume and opaque things, the opaque ones
 * are drawn alone for their depth (scene-depth.ts), so a mesh inside a volume is hidden where
 * the volume is opaque before it. It renders on demand (after a change or while the controls
 * move), so an idle page costs no CPU.
 *
 * The page's own subject (the room's entry, when the room has a scene its active layer) is
 * the layer `active`; `show()` puts content there. Other layers come from the room's scene
 * (room-scene.ts). The camera frames what is shown until the user (or a room) moves it.
 */
import * as THREE from 'three';
import type { RoomCamera } from '../../core/wire/room-types.ts';
import { FirstPicture } from './first-picture.ts';
import { SceneDepth } from './scene-depth.ts';
import { SliceLink } from './slice-link.ts';
import { StageCamera } from './stage-camera.ts';
import type { StageContent } from './stage-content.ts';
import { StageLayers, type LayersChange } from './stage-layers.ts';
import { pickLayers, type StagePick } from './stage-pick.ts';

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

/** The layer id of the page's own subject while the room names none. */
export const ENTRY_LAYER = 'entry';

export class Stage {
  readonly canvas: HTMLCanvasElement;
  /** The renderer and scene, for the VR mode (xr/vr-mode.ts) too. */
  readonly renderer: THREE.WebGLRenderer;
  readonly scene = new THREE.Scene();
  readonly view: StageCamera;
  readonly #grid = new THREE.GridHelper(10, 20, 0x2a3442, 0x18202b);
  /** Every layer hangs from it; identity on the page, placed in the room in VR (xr/). */
  readonly contentRoot = new THREE.Group();
  readonly layers: StageLayers;
  /** The point every volume's slices pass through. */
  readonly slices: SliceLink;
  /** The opaque things' depth, read by ray marchers. */
  readonly depth = new SceneDepth();
  /** Held by whatever loads something it will show; drawn once none does (first-picture.ts). */
  readonly firstPicture = new FirstPicture();
  readonly #beforeFrame = new Set<(frame: XRFrame | undefined) => void>();
  readonly #afterShow = new Set<() => void>();
  #active = ENTRY_LAYER;
  /** How many times the active layer was given content; a drawn frame says which showing it drew (`data-drawn`). */
  #shows = 0;
  #dirty = true;
  /** Frames are asked for (the animation loop is set); off while the page has nothing to draw. */
  #looping = false;
  /** The user or a room moved the camera since it last framed what is shown. */
  #cameraTaken = false;

  constructor(host: HTMLElement) {
    if (!webglAvailable()) throw new WebGLUnavailableError('WebGL is disabled or unsupported');
    try {
      // preserveDrawingBuffer keeps the last frame readable (screenshots, "save image").
      this.renderer = new THREE.WebGLRenderer({ antialias: true, preserveDrawingBuffer: true });
    } catch (error) {
      throw new WebGLUnavailableError(error instanceof Error ? error.message : String(error));
    }
    this.renderer.setPixelRatio(Math.min(window.devicePixelRatio, 2));
    this.renderer.outputColorSpace = THREE.SRGBColorSpace;
    this.renderer.toneMapping = THREE.ACESFilmicToneMapping;
    // Layers' clip planes are set on their materials.
    this.renderer.localClippingEnabled = true;
    this.canvas = this.renderer.domElement;
    this.canvas.classList.add('stage-canvas');
    host.appendChild(this.canvas);

    this.scene.background = new THREE.Color(0x0b0f15);
    this.scene.add(new THREE.HemisphereLight(0xdfefff, 0x202634, 1.1));
    const key = new THREE.DirectionalLight(0xffffff, 2.6);
    key.position.set(3, 5, 4);
    const rim = new THREE.DirectionalLight(0x6aa8ff, 0.9);
    rim.position.set(-4, 2, -3);
    this.scene.add(key, rim, this.#grid, this.contentRoot);
    this.renderer.xr.enabled = true;

    this.view = new StageCamera(this.canvas, () => this.invalidate());
    this.view.onMoved(() => (this.#cameraTaken = true));
    this.layers = new StageLayers(this.contentRoot, (change) => this.#layersChanged(change));
    this.slices = new SliceLink(this.contentRoot);

    new ResizeObserver(() => this.#resize(host)).observe(host);
    this.#resize(host);
    // A VR session draws every frame from its own frame loop, whether or not the page was asking
    // for frames: only the session's loop is given the callback (the renderer's setAnimationLoop
    // would start the page's loop beside it); the page's loop takes over again when it ends.
    this.renderer.xr.addEventListener('sessionstart', () => this.#keepLooping(() => this.renderer.xr.setAnimationLoop(this.#loop)));
    this.renderer.xr.addEventListener('sessionend', () => this.#keepLooping(() => this.renderer.setAnimationLoop(this.#loop)));
    this.invalidate();
    // Readable from outside (tests): when the first picture was drawn, in the page's ms.
    void this.firstPicture.drawn.then(() => (this.canvas.dataset.firstPicture = String(performance.now())));
  }

  /**
   * Replaces what the active layer shows (disposing the previous content) and frames it;
   * `keepView` keeps the camera (a refined view of the same thing).
   */
  show(content: StageContent | null, keepView = false): void {
    if (content && !keepView) this.#cameraTaken = false;
    this.layers.setContent(this.#active, content, keepView);
    this.canvas.dataset.shows = String(++this.#shows);
  }

  /** The layer the page's own subject shows in. */
  get activeLayer(): string {
    return this.#active;
  }

  /** Makes layer `id` the page's own (its content, if any, is kept: the room named the page's layer). */
  setActiveLayer(id: string): void {
    if (id === this.#active) return;
    const own = this.layers.get(this.#active);
    if (own?.content && !this.layers.get(id)?.content) {
      this.layers.remove(id);
      this.layers.rename(this.#active, id);
    }
    this.#active = id;
  }

  /** The active layer's content. */
  get content(): StageContent | null {
    return this.layers.get(this.#active)?.content ?? null;
  }

  /** Fits the camera to every visible layer; the ground grid goes under it. */
  frame(view: 'front' | 'orbit' = this.content?.view ?? 'orbit'): void {
    const box = this.layers.box();
    const sphere = this.view.frame(box, view);
    if (!sphere) return;
    this.#cameraTaken = false;
    const size = sphere.radius * 4;
    this.#grid.scale.setScalar(size / 10);
    this.#grid.position.set(sphere.center.x, box.min.y - sphere.radius * 0.02, sphere.center.z);
    this.invalidate();
  }

  /** Calls `fn` before each frame is drawn (every frame while a VR session runs); returns the unsubscribe. */
  onBeforeFrame(fn: (frame: XRFrame | undefined) => void): () => void {
    this.#beforeFrame.add(fn);
    return () => this.#beforeFrame.delete(fn);
  }

  /** Calls `fn` each time content has been shown in the active layer and framed. */
  onShown(fn: () => void): void {
    this.#afterShow.add(fn);
  }

  /** Moves the camera to a room's camera (not while a VR session runs: the headset leads then). */
  setCameraView(view: RoomCamera): void {
    if (this.renderer.xr.isPresenting || !this.view.setView(view)) return;
    this.#cameraTaken = true;
    // Where a room put the camera, readable from outside (tests, styles).
    this.canvas.dataset.roomCamera = JSON.stringify(this.view.view());
    this.invalidate();
  }

  /** Puts the camera back where showing the content put it (the "reset camera" control). */
  resetCamera(): void {
    this.view.stopGlide();
    this.frame();
  }

  /** What the user sees first under a point of the page (client pixels), or null. */
  pickAt(clientX: number, clientY: number): StagePick | null {
    return this.pickRay(this.view.rayAt(this.canvas, clientX, clientY));
  }

  /** What is seen first along a world-space ray (a controller's in VR), or null. */
  pickRay(ray: THREE.Raycaster): StagePick | null {
    return pickLayers(this.layers.list(), ray, this.contentRoot);
  }

  /** Asks for a new frame (and for frames again, if the page had stopped asking). */
  invalidate(): void {
    this.#dirty = true;
    if (!this.#looping) this.#keepLooping(() => this.renderer.setAnimationLoop(this.#loop));
  }

  /** Marks a frame due and the loop running, set by `start`. */
  #keepLooping(start: () => void): void {
    this.#dirty = true;
    this.#looping = true;
    start();
  }

  #layersChanged(change: LayersChange): void {
    if (change.kind === 'content' && change.layer.content) {
      // The active layer's new subject is framed; another layer's content while the camera is not the user's.
      if (!change.refined && (change.layer.id === this.#active || !this.#cameraTaken)) this.frame();
      if (change.layer.id === this.#active) for (const fn of this.#afterShow) fn();
    }
    this.invalidate();
  }

  #resize(host: HTMLElement): void {
    const width = Math.max(1, host.clientWidth);
    const height = Math.max(1, host.clientHeight);
    this.renderer.setSize(width, height, false);
    this.view.resize(width, height);
    this.invalidate();
  }

  // The renderer's animation loop is the page's requestAnimationFrame, or the headset's frame
  // loop while a VR session runs (where every frame is drawn: the head always moves).
  #loop = (_time: number, frame?: XRFrame): void => {
    const presenting = this.renderer.xr.isPresenting;
    // update() applies damping and fires 'change' (→ invalidate) while the camera still moves.
    if (!presenting) this.view.update();
    if (!this.#dirty && !presenting) {
      // Nothing to draw and the camera at rest: stop asking for frames until something changes
      // (invalidate). An idle page woken 60 times a second cost its browser ~9% of a core.
      if (!this.view.moving) {
        this.#looping = false;
        this.renderer.setAnimationLoop(null);
      }
      return;
    }
    this.#dirty = false;
    const shown = this.layers.list().filter((layer) => layer.content && layer.root.visible);
    this.#grid.visible = !presenting && shown.length > 0 && this.content?.view !== 'front';
    for (const fn of this.#beforeFrame) fn(frame);
    this.layers.updatePlanes();
    this.depth.render(this.renderer, this.scene, this.view.camera, this.contentRoot);
    this.renderer.render(this.scene, this.view.camera);
    this.canvas.dataset.frames = String(Number(this.canvas.dataset.frames ?? 0) + 1);
    // Readable from outside (tests): the latest showing is on the canvas once this equals data-shows.
    this.canvas.dataset.drawn = String(this.#shows);
    // Which layers this frame drew (tests and benchmarks wait for all of a scene).
    this.canvas.dataset.layersDrawn = shown.map((layer) => layer.id).join(' ');
  };
}

/**
 * The page's stage in `host` (the layout's stage host), or null with the browser's reason: a
 * browser that gives no WebGL context leaves `pane` marked `data-webgl="unavailable"`, and the
 * page works on without drawing.
 */
export function stageOrProblem(host: HTMLElement, pane: HTMLElement): { stage: Stage | null; problem: string | null } {
  try {
    return { stage: new Stage(host), problem: null };
  } catch (error) {
    if (!(error instanceof WebGLUnavailableError)) throw error;
    pane.dataset.webgl = 'unavailable';
    return { stage: null, problem: error.message };
  }
}
