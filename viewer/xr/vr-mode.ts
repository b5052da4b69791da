/**
 * @module vr-mode
 * The viewer in VR. Where the browser supports `immersive-vr` the page shows an "Enter VR"
 * button; in the session the stage's own renderer and scene draw for the headset, with the
 * shown specimen standing on a table in front (specimen-placement.ts), the hands to grab and
 * scale it (vr-inputs.ts, grab-controls.ts) and the parameter panel (vr-panel.ts). Nothing is
 * requested differently: a panel change goes to the page's own request path (`change`), so
 * room peers follow as they do for a page edit, and a room peer's change reaches the headset
 * as it reaches the page. The room's layers stand together, placed as one; the panel lists
 * them with visibility and opacity, its time row works the page's time controls (vr-time.ts),
 * and its row of annotation tools is the page's toolbar (vr-mark-tools.ts); a scale bar stands
 * by the specimen, and the panel says its length and where a controller points in physical
 * units (vr-physical.ts). Only meshes travel with a triangle budget while in VR
 * (triangle-budget.ts). Ending the session (the headset's menu or "Exit VR") returns to the
 * page as it was.
 */
import * as THREE from 'three';
import type { LayerDisplay } from '../../core/wire/scene-types.ts';
import type { ParameterSchema } from '../../core/wire/wire-types.ts';
import { h } from '../dom.ts';
import type { ChangeMode } from '../panels/params/param-field.ts';
import type { Stage } from '../stage/stage.ts';
import { initialScale, placeOnTable, scaleAbout } from './specimen-placement.ts';
import { vrDelivery, vrTriangleBudget } from './triangle-budget.ts';
import type { VrEdits } from './vr-edit-tools.ts';
import type { VrLayerRow } from './vr-layer-list.ts';
import type { VrMarks } from './vr-mark-tools.ts';
import type { VrLook } from './vr-panel.ts';
import { VrProbe } from './vr-probe.ts';
import type { VrSessionParts } from './vr-session-parts.ts';
import type { VrSteps } from './vr-time.ts';

/** What the page shows, as the VR panel needs it. */
export interface VrSubject {
  id: string;
  title: string;
  schema: ParameterSchema | null;
  values: Record<string, unknown>;
}

export interface VrModeOptions {
  stage: Stage;
  /** A panel edit in VR: handled exactly like the same edit on the page. */
  change(values: Record<string, unknown>, mode: ChangeMode): void;
  /** The line the page shows about the room or the request ('' when none). */
  status(): { text: string; tone: 'warn' | 'error' };
  follow: { enabled(): boolean; set(on: boolean): void };
  /** The session began or ended (the page asks again, with or without the triangle budget). */
  presentingChanged(presenting: boolean): void;
  /** The shown result's look, and a step of one of its settings from the panel (as the page's control would). */
  look?: { current(): VrLook | null; step(setting: 'colormap' | 'mode'): void };
  /** The room's layers, and a change of one from the panel (as the page's layer list would). */
  layers?: { rows(): VrLayerRow[]; change(id: string, change: LayerDisplay, mode: ChangeMode): void };
  /** The page's annotation tools: chosen on the panel, a trigger on the specimen places. */
  marks?: VrMarks;
  /** The page's segmentation tools: a trigger off the panel edits a labels layer with them. */
  edits?: VrEdits;
  /** The shown result's time controls (null when it has no time axis): the panel's time row works them. */
  time?(): VrSteps | null;
  /** The physical unit of the frame of a point picked on `layer` (undefined: the room's); null while none is known. */
  unitOf?(layer: string | undefined): string | null;
}

interface Placed {
  objects: string;
  subject: string | null;
  center: THREE.Vector3;
  /** The root's matrix as placing left it: while it is unchanged (no hand moved it), more layers are placed anew. */
  matrix: THREE.Matrix4 | null;
}

/** The headset's near and far planes, in metres. */
const VR_NEAR = 0.02;
const VR_FAR = 200;

const NOTHING_PLACED = (): Placed => ({ objects: '', subject: null, center: new THREE.Vector3(), matrix: null });

/** True when `immersive-vr` sessions are supported; false without WebXR or on any error. */
async function isVrSupported(): Promise<boolean> {
  try {
    return (await navigator.xr?.isSessionSupported('immersive-vr')) ?? false;
  } catch {
    return false;
  }
}

export class VrMode {
  readonly button: HTMLButtonElement;
  readonly #options: VrModeOptions;
  readonly #budget = vrTriangleBudget();
  readonly #probe = new VrProbe();
  #parts: VrSessionParts | null = null;
  #session: XRSession | null = null;
  #subject: VrSubject | null = null;
  /** What was placed on the table: the layers' contents, the subject, the centre, and where placing put the root. */
  #placed: Placed = NOTHING_PLACED();
  #lastTime = 0;
  /** The status line last shown in the headset. */
  #status = '';

  constructor(options: VrModeOptions) {
    this.#options = options;
    this.button = h('button', { class: 'button small vr-button', type: 'button', hidden: true, 'data-testid': 'enter-vr' }, 'Enter VR');
    this.button.addEventListener('click', () => void this.#toggle());
    void isVrSupported().then((supported) => (this.button.hidden = !supported));
    options.stage.onBeforeFrame((frame) => this.#frame(frame));
    this.#probe.install(this);
  }

  get status(): string {
    return this.#status;
  }

  /** The session's framebuffer, width × height in pixels (both eyes), or null outside a session. */
  get framebuffer(): [number, number] | null {
    const layer = this.#session?.renderState.baseLayer;
    return layer ? [layer.framebufferWidth, layer.framebufferHeight] : null;
  }

  get presenting(): boolean {
    return this.#session !== null;
  }

  /** Delivery options of a `/data` request for a specimen of `type` (the triangle budget in VR). */
  delivery(type: string): Record<string, number> | undefined {
    return this.presenting ? vrDelivery(type, this.#budget) : undefined;
  }

  /** What the page shows now (called on every request the page makes). */
  show(subject: VrSubject): void {
    this.#subject = subject;
    this.#parts?.panel.show(subject.title, subject.schema, subject.values);
  }

  /** The session's panel, time row, annotation tools and scale bar, for the automation probe (null before a session). */
  get parts(): VrSessionParts | null {
    return this.#parts;
  }

  get root(): THREE.Object3D {
    return this.#options.stage.contentRoot;
  }

  async #toggle(): Promise<void> {
    if (this.#session) {
      await this.#session.end();
      return;
    }
    this.#probe.entering();
    const { renderer, scene } = this.#options.stage;
    let session: XRSession | null = null;
    let parts: VrSessionParts;
    let sort: Parameters<THREE.WebGLRenderer['setTransparentSort']>[0];
    try {
      if (!navigator.xr) throw new Error('this browser has no WebXR');
      // `local-floor`: the floor at y = 0, so "table height" means something.
      const features = { requiredFeatures: ['local-floor'], optionalFeatures: ['hand-tracking'] };
      session = await navigator.xr.requestSession('immersive-vr', features);
      ({ parts, sort } = await this.#loadParts(renderer, scene));
    } catch (error) {
      // A session that started but whose parts did not load ends again.
      await session?.end();
      this.button.title = `VR could not start: ${error instanceof Error ? error.message : String(error)}`;
      return;
    }
    renderer.xr.setReferenceSpaceType('local-floor');
    // The headset's depth range is the stage camera's: the page's is sized to what it framed
    // (a scan 500 units across puts its near plane metres away); in the room, units are metres.
    const { camera } = this.#options.stage.view;
    camera.near = VR_NEAR;
    camera.far = VR_FAR;
    camera.updateProjectionMatrix();
    renderer.setTransparentSort(sort);
    renderer.localClippingEnabled = true;
    scene.add(parts.panel.root);
    this.#session = session;
    this.#placed = NOTHING_PLACED();
    session.addEventListener('end', () => this.#ended());
    await renderer.xr.setSession(session);
    this.button.textContent = 'Exit VR';
    if (this.#subject) parts.panel.show(this.#subject.title, this.#subject.schema, this.#subject.values);
    this.#options.presentingChanged(true);
  }

  /** The session's panel and hands, from their own chunk of the bundle (loaded once). */
  async #loadParts(
    renderer: THREE.WebGLRenderer,
    scene: THREE.Scene,
  ): Promise<{ parts: VrSessionParts; sort: typeof import('./vr-session-parts.ts').reversePainterSortStable }> {
    const module = await import('./vr-session-parts.ts');
    this.#parts ??= module.createVrSessionParts(
      renderer,
      scene,
      this.root,
      {
        change: (values, mode) => this.#options.change(values, mode),
        scale: (factor) => this.#scale(factor),
        follow: (on) => this.#options.follow.set(on),
        look: (setting) => this.#options.look?.step(setting),
        layer: (id, change, mode) => this.#options.layers?.change(id, change, mode),
        exit: () => void this.#session?.end(),
      },
      (factor) => this.#scale(factor),
      {
        root: this.root,
        box: () => this.#options.stage.layers.box(),
        pickRay: (ray) => this.#options.stage.pickRay(ray),
        unitOf: (layer) => this.#options.unitOf?.(layer) ?? null,
      },
      this.#options.marks,
      this.#options.edits,
    );
    return { parts: this.#parts, sort: module.reversePainterSortStable };
  }

  #ended(): void {
    const { stage } = this.#options;
    this.#session = null;
    this.#parts?.inputs.reset();
    // The bar hangs from the content root: the page draws its own (stage/scale-bar.ts).
    if (this.#parts) this.#parts.physical.bar.group.visible = false;
    if (this.#parts) stage.scene.remove(this.#parts.panel.root);
    stage.renderer.setTransparentSort(null);
    const root = this.root;
    root.position.set(0, 0, 0);
    root.quaternion.identity();
    root.scale.setScalar(1);
    root.updateMatrixWorld(true);
    this.button.textContent = 'Enter VR';
    stage.frame(stage.content?.view ?? 'orbit');
    this.#options.presentingChanged(false);
  }

  /** `factor` times the current scale, or real size (null), about the specimen's centre. */
  #scale(factor: number | null): void {
    scaleAbout(this.root, this.#placed.center, factor === null ? 1 : this.root.scale.x * factor);
    this.#parts?.panel.setScale(this.root.scale.x);
  }

  #frame(frame: XRFrame | undefined): void {
    if (!this.#session || !frame || !this.#parts) return;
    const now = performance.now();
    const seconds = this.#lastTime ? Math.min(0.1, (now - this.#lastTime) / 1000) : 0;
    this.#lastTime = now;
    this.#placeNewContent();
    const { panel, inputs } = this.#parts;
    inputs.update(seconds);
    const status = this.#options.status();
    this.#status = status.text;
    panel.setStatus(status.text, status.tone);
    panel.setFollow(this.#options.follow.enabled());
    panel.setLook(this.#options.look?.current() ?? null);
    panel.layers.show(this.#options.layers?.rows() ?? []);
    this.#parts.time.update(this.#options.time?.() ?? null);
    this.#parts.marks?.update();
    if (this.#parts.edits) {
      // Only the brush shows where the ray meets a layer: a pick per frame only then.
      const hand = this.#options.edits?.tools.tool === 'brush' ? inputs.hands().find((each) => !each.onPanel) : undefined;
      this.#parts.edits.update(hand ? this.#options.stage.pickRay(hand.ray) : null);
    }
    this.#parts.physical.update(inputs.hands());
    panel.root.update(seconds);
    this.#probe.frame(now, this.#placed.objects !== '');
  }

  /**
   * Stands the layers on the table when the first content of the session or of another subject
   * comes, and again as more layers come while no hand has moved them; otherwise the hands'
   * placement is kept.
   */
  #placeNewContent(): void {
    const { stage } = this.#options;
    const shown = stage.layers.list().filter((layer) => layer.content);
    const objects = shown.map((layer) => layer.content!.object.uuid).join(' ');
    if (objects === this.#placed.objects) return;
    const subject = this.#subject?.id ?? null;
    const box = stage.layers.box();
    const center = box.isEmpty() ? new THREE.Vector3() : box.getCenter(new THREE.Vector3());
    const untouched = this.#placed.matrix !== null && this.#placed.matrix.equals(this.root.matrix);
    let matrix = this.#placed.matrix;
    if (shown.length > 0 && (this.#placed.objects === '' || subject !== this.#placed.subject || untouched)) {
      placeOnTable(this.root, box, initialScale(box));
      this.#parts?.panel.setScale(this.root.scale.x);
      matrix = this.root.matrix.clone();
    }
    this.#placed = { objects, subject, center, matrix };
  }
}
