/**
 * @module vr-scale-bar
 * A scale bar standing by the specimen in VR: a bar of a round length (round-length.ts) in the
 * room frame's unit, hung from the content root so it is drawn at the specimen's own scale and
 * turns and scales with it, along its x axis just in front of its lower edge, with its label
 * beside it. Its length is chosen so it is at most 20 cm long in the headset's room, whatever
 * the hands scaled the specimen to; its thickness stays a few millimetres in the room.
 */
import * as THREE from 'three';
import { textSprite } from '../layers/marks/text-sprite.ts';
import { formatLength, scaleBarLength, type ScaleBarLength } from '../../core/wire/round-length.ts';

/** The bar's longest length in the headset's room, metres. */
const MAX_METRES = 0.2;
/** Its thickness and its gap from the specimen, metres. */
const THICKNESS_METRES = 0.003;
const GAP_METRES = 0.02;

/** What the bar shows: its length (physical units), its label, and how long it is in the room. */
export interface VrScaleBarState extends ScaleBarLength {
  label: string;
  metres: number;
}

export class VrScaleBar {
  readonly group = new THREE.Group();
  readonly #material = new THREE.MeshBasicMaterial({ color: 0xdfe8f2 });
  readonly #bar = new THREE.Mesh(new THREE.BoxGeometry(1, 1, 1), this.#material);
  readonly #ticks = [0, 1].map(() => new THREE.Mesh(new THREE.BoxGeometry(1, 1, 1), this.#material));
  #sprite: THREE.Sprite | null = null;
  #state: VrScaleBarState | null = null;

  constructor() {
    this.group.name = 'scale-bar';
    this.group.add(this.#bar, ...this.#ticks);
    this.group.visible = false;
  }

  get state(): VrScaleBarState | null {
    return this.#state;
  }

  /**
   * Fits the bar to the content root `root` (its scale is metres per physical unit) and the box
   * of what it shows (`box`, in its frame), labelled in `unit`; hidden when nothing is shown.
   */
  update(root: THREE.Object3D, box: THREE.Box3, unit: string | null): void {
    root.updateWorldMatrix(true, false);
    const metresPerUnit = root.getWorldScale(new THREE.Vector3()).x;
    const bar = box.isEmpty() ? null : scaleBarLength(1 / metresPerUnit, MAX_METRES);
    this.group.visible = bar !== null;
    if (!bar) {
      this.#state = null;
      return;
    }
    const length = bar.value;
    const thick = THICKNESS_METRES / metresPerUnit;
    const gap = GAP_METRES / metresPerUnit;
    this.group.position.set(box.min.x, box.min.y + thick, box.max.z + gap);
    this.#bar.scale.set(length, thick, thick);
    this.#bar.position.set(length / 2, 0, 0);
    this.#ticks.forEach((tick, end) => {
      tick.scale.set(thick, thick * 4, thick);
      tick.position.set(end * length, thick * 1.5, 0);
    });
    const label = formatLength(bar, unit);
    if (label !== this.#state?.label) this.#label(label, length);
    if (this.#sprite) {
      this.#sprite.position.set(length / 2, thick * 2, 0);
      // A sprite keeps its size in the view only when the root's scale is taken out of it.
      const size = this.#sprite.userData.size as THREE.Vector3;
      this.#sprite.scale.set(size.x / metresPerUnit, size.y / metresPerUnit, 1);
    }
    this.#state = { ...bar, label, metres: length * metresPerUnit };
  }

  /** A new label sprite in place of the old, drawn by the browser's canvas (so a unit such as µm shows as written). */
  #label(text: string, length: number): void {
    if (this.#sprite) {
      this.group.remove(this.#sprite);
      this.#sprite.material.map?.dispose();
      this.#sprite.material.dispose();
    }
    this.#sprite = textSprite(text, '#dfe8f2');
    this.#sprite.userData.size = this.#sprite.scale.clone();
    this.#sprite.position.set(length / 2, 0, 0);
    this.group.add(this.#sprite);
  }
}
