/**
 * @module vr-physical
 * Sizes and positions in the result's physical units, in VR: the scale bar standing by the
 * specimen (vr-scale-bar.ts), and a section of the panel saying its length ("Scale bar = 10
 * mm") and where a controller points, as the page's readout says where the mouse points: the
 * first thing its ray meets on the specimen (the same pick as a click or a trigger: a surface,
 * a slice's voxel centre, a volume's first visible sample) in the frame and unit of the layer
 * it meets, else the controller's tip in the room's frame. A hand pointing at the panel is
 * left out; the right hand is asked first. The pick runs a few times a second, not every frame
 * (a ray-marched volume is walked along the ray each time).
 */
import { Container, Text } from '@pmndrs/uikit';
import type * as THREE from 'three';
import type { StagePick } from '../stage/stage-pick.ts';
import { formatPosition, positionOf } from '../layers/volume/value-readout.ts';
import type { VrInputs } from './vr-inputs.ts';
import { VR_THEME as T } from './vr-theme.ts';
import { VrScaleBar, type VrScaleBarState } from './vr-scale-bar.ts';

/** What the section reads of the stage. */
export interface VrPhysicalSource {
  /** The content root: the room's frame, placed and scaled in the headset's room. */
  readonly root: THREE.Object3D;
  /** The box of what is shown, in the root's frame. */
  box(): THREE.Box3;
  pickRay(ray: THREE.Raycaster): StagePick | null;
  /** The physical unit of the frame of a point picked on `layer` (undefined: the room's); null while none is known. */
  unitOf(layer: string | undefined): string | null;
}

/** A hand's target ray (world space) and whether it points at the panel. */
type VrHandRay = ReturnType<VrInputs['hands']>[number];

/** Where a controller points, as the panel says it. */
export interface VrPointerState {
  /** `ray`: the ray met the specimen there; `tip`: it met nothing, the controller's tip is there. */
  kind: 'ray' | 'tip';
  /** x, y, z in physical units. */
  position: [number, number, number];
  unit: string | null;
  text: string;
}

/** Session frames between picks. */
const PICK_EVERY = 6;
const IDLE = 'Point a controller at the specimen';

/** The panel's font has no µ: the unit is spelled in letters there (the bar's own label keeps it). */
const panelText = (text: string): string => text.replace(/µ/g, 'u');

export class VrPhysical {
  readonly root = new Container({ flexDirection: 'column', gap: 6, width: '100%' });
  readonly bar = new VrScaleBar();
  readonly #source: VrPhysicalSource;
  readonly #barText = new Text({ text: '', fontSize: T.fontSize, color: T.text });
  readonly #pointerText = new Text({ text: IDLE, fontSize: T.smallFont, color: T.muted });
  #frames = 0;
  #pointer: VrPointerState | null = null;
  #shown = '';

  constructor(source: VrPhysicalSource) {
    this.#source = source;
    source.root.add(this.bar.group);
    this.root.add(this.#barText, this.#pointerText);
  }

  /** The bar and where a controller points now (the automation probe reads them). */
  get state(): { bar: VrScaleBarState | null; pointer: VrPointerState | null } {
    return { bar: this.bar.state, pointer: this.#pointer };
  }

  /** Once per session frame, after the hands moved. */
  update(hands: readonly VrHandRay[]): void {
    const source = this.#source;
    this.bar.update(source.root, source.box(), source.unitOf(undefined));
    if (this.#frames++ % PICK_EVERY === 0) this.#pointer = this.#point(hands.filter((hand) => !hand.onPanel));
    const bar = this.bar.state;
    const key = `${bar?.label ?? ''}|${this.#pointer?.text ?? ''}`;
    // Called every frame: only a change is laid out again.
    if (key === this.#shown) return;
    this.#shown = key;
    this.#barText.setProperties({ text: bar ? panelText(`Scale bar = ${bar.label}`) : '' });
    this.#pointerText.setProperties({ text: panelText(this.#pointer?.text ?? IDLE) });
  }

  #point(hands: readonly VrHandRay[]): VrPointerState | null {
    for (const { ray } of hands) {
      const pick = this.#source.pickRay(ray);
      if (pick) return this.#state('ray', positionOf(pick), this.#source.unitOf(pick.layer));
    }
    const hand = hands[0];
    if (!hand) return null;
    this.#source.root.updateWorldMatrix(true, false);
    const tip = this.#source.root.worldToLocal(hand.ray.ray.origin.clone());
    return this.#state('tip', tip.toArray(), this.#source.unitOf(undefined));
  }

  #state(kind: 'ray' | 'tip', point: number[], unit: string | null): VrPointerState {
    const position = point.map((v) => Number(v.toPrecision(6))) as [number, number, number];
    return { kind, position, unit, text: `${kind === 'ray' ? 'Ray at' : 'Tip at'} ${formatPosition(position, unit)}` };
  }
}
