/**
 * @module volume-slices
 * A scalar volume on the stage: three orthogonal slices through it (the stage's slice point,
 * slice-planes.ts), each with a slider, and a colour map picker; or, switched to the `volume`
 * view, drawn whole by ray marching (volume-raymarch.ts) with an opacity control: the room's
 * view `opacity`, shown and shared as the same 0..1 number (densityOf below). It stands in
 * its physical frame (volume-frame.ts). Colours follow a window (colour-bar.ts) that opens on
 * the histogram's defaults (window-level.ts), with the layer's gamma; samples under the floor
 * are see-through, so slices do not hide each other.
 */
import type * as THREE from 'three';
import type { VolumeData } from '../../../core/wire/decoded-types.ts';
import { DEFAULT_COLORMAP } from '../../../core/wire/layer-defaults.ts';
import type { LayerDisplay } from '../../../core/wire/scene-types.ts';
import type { RoomView } from '../../../core/wire/room-types.ts';
import { h } from '../../dom.ts';
import { barChangeOf, barSettingsOf, createColourBar } from './colour-bar.ts';
import { colormapTable, finiteRange, type ColormapName } from './colormaps.ts';
import type { ContentHit, LayerLook, StageContent } from '../../stage/stage-content.ts';
import { sliderRow, type SliderRow } from './slice-planes.ts';
import { createVolumeBase, type VolumeBase, type VolumeStage } from './volume-base.ts';
import { volumeFrame } from './volume-frame.ts';
import { createRaymarchedVolume, type RaymarchedVolume } from './volume-raymarch.ts';
import { defaultWindow } from '../../../core/wire/window-level.ts';

/**
 * A ray-marched volume's opacity: the one number (0..1) the page shows, the room's view stores
 * and every follower applies, and the density the shader takes from it (how much each voxel
 * absorbs, volume-raymarch.ts). People and rooms only ever see the first; the second stays in
 * here. The mapping is linear, five times the opacity: a volume opens at 0.2 (density 1, a
 * soft look that shows the inside), 1 absorbs five times as much (a near-solid shell), 0
 * draws nothing. Five times is also what pages before this number was shared drew for the
 * values they stored, so a room's view kept from then looks the same. A volume opens with
 * VOLUME_OPACITY_DEFAULT while its room's view names no opacity.
 */
const VOLUME_OPACITY_DEFAULT = 0.2;

/** True for a usable opacity (a number within 0..1); anything else leaves the volume as it is. */
function isVolumeOpacity(value: unknown): value is number {
  return typeof value === 'number' && value >= 0 && value <= 1;
}

/** The ray marcher's density for `opacity` (0..1). */
function densityOf(opacity: number): number {
  return 5 * Math.max(0, Math.min(1, opacity));
}

/** A volume on the stage, with its controls. */
export interface VolumeContent extends StageContent {
  /** Sliders, the colour bar and the view picker, for the stage's tool area. */
  panel: HTMLElement;
  /** Every volume takes its layer's look itself (on its slices, box and ray marcher). */
  applyLook(look: LayerLook): void;
}

/** A floor's share of the colour map, as the panel shows it. */
const floorShown = (floor: number): string => `${Math.round((floor / 255) * 100)}%`;

/** A scalar volume on the stage with its panel: slices or ray marched, its window, map, gamma, floor and opacity. */
export class VolumeSlices implements VolumeContent {
  readonly object: VolumeContent['object'];
  readonly panel: HTMLElement;
  onViewChange?: (change: RoomView) => void;
  readonly #stage: VolumeStage;
  readonly #min: number;
  readonly #span: number;
  #low: number;
  #high: number;
  #gamma = 1;
  #mapName: ColormapName = DEFAULT_COLORMAP;
  #table = colormapTable(DEFAULT_COLORMAP);
  /** Colour-map index (0..255) under which a voxel is transparent: past the background, at least a sliver. */
  #floor: number;
  #opacity = VOLUME_OPACITY_DEFAULT;
  /** True while a room's view or a layer's display is applied: those changes are not the user's to share. */
  #applying = false;
  #raymarch: RaymarchedVolume | null = null;
  readonly #base: VolumeBase;
  readonly #opacityRow: SliderRow;
  readonly #colourBar: ReturnType<typeof createColourBar>;

  constructor(volume: VolumeData, stage: VolumeStage) {
    this.#stage = stage;
    const [min, max] = volume.value_range ?? finiteRange(volume.data);
    this.#min = min;
    this.#span = max - min || 1;
    const opening = defaultWindow(volume.data, min, max);
    [this.#low, this.#high] = [opening.low, opening.high];
    this.#floor = Math.max(3, Math.min(255, Math.round(((opening.floor - this.#low) / (this.#high - this.#low || 1)) * 255)));
    this.#base = this.#createBase(volume);
    this.object = this.#base.frame.outer;
    this.#opacityRow = this.#createOpacityRow();
    this.#colourBar = createColourBar({
      range: [min, max],
      initial: { map: DEFAULT_COLORMAP, low: this.#low, high: this.#high },
      onChange: (state) => {
        const change = barChangeOf({ low: this.#low, high: this.#high, map: this.#mapName }, state);
        this.#mapName = state.map;
        this.#table = colormapTable(state.map);
        [this.#low, this.#high] = [state.low, state.high];
        this.#recolour();
        this.#share(change);
      },
    });
    const base = this.#base;
    this.panel = h(
      'div',
      { class: 'slice-panel', 'data-testid': 'slice-panel' },
      base.title,
      ...base.planes.rows,
      this.#createFloorRow(),
      this.#colourBar.element,
      this.#opacityRow.row,
      base.viewRow,
    );
  }

  #share(change: RoomView): void {
    if (!this.#applying) this.onViewChange?.(change);
  }

  /** The colour-map index of a sample. */
  #indexOf(v: number): number {
    const t = Math.max(0, Math.min(1, (v - this.#low) / (this.#high - this.#low || 1)));
    return Math.round((this.#gamma === 1 ? t : t ** this.#gamma) * 255);
  }

  /** The window as shares of the value range, as the ray marcher takes it. */
  #setWindowOn(raymarch: RaymarchedVolume): void {
    raymarch.setWindow((this.#low - this.#min) / this.#span, (this.#high - this.#min) / this.#span);
  }

  #createBase(volume: VolumeData): VolumeBase {
    const frame = volumeFrame(volume);
    return createVolumeBase(frame, {
      title: '',
      alphaTest: 0.5,
      pixel: (x, y, z, out, o) => {
        const k = this.#indexOf(frame.sample(x, y, z));
        out[o] = this.#table[k * 3]!;
        out[o + 1] = this.#table[k * 3 + 1]!;
        out[o + 2] = this.#table[k * 3 + 2]!;
        // Values under the floor (empty space, noise) are see-through, so slices do not hide each other.
        out[o + 3] = k < this.#floor ? 0 : 255;
      },
      seen: (x, y, z) => this.#indexOf(frame.sample(x, y, z)) >= this.#floor,
      // The readout reads any voxel of a slice, see-through or not.
      pickedOnSlice: () => true,
      march: () => {
        const range = { min: this.#min, span: this.#span };
        const raymarch = createRaymarchedVolume(volume.data, frame.count, range, frame.dims, this.#table, this.#stage.depth);
        this.#setWindowOn(raymarch);
        raymarch.setFloor(this.#floor);
        raymarch.setDensity(densityOf(this.#opacity));
        raymarch.setGamma(this.#gamma);
        this.#raymarch = raymarch;
        return raymarch;
      },
      stage: this.#stage,
      picked: (mode) => {
        this.#opacityRow.row.hidden = mode !== 'volume';
        this.#share({ mode });
      },
    });
  }

  #createOpacityRow(): SliderRow {
    const title = "How opaque the volume is: the room's view opacity, shared while following";
    const row = sliderRow('opacity', 'opacity', title, { min: 0, max: 1, step: 0.01, value: this.#opacity }, this.#opacity.toFixed(2));
    row.value.dataset.testid = 'volume-opacity';
    row.input.addEventListener('input', () => {
      this.#setOpacity(Number(row.input.value));
      this.#share({ opacity: this.#opacity });
    });
    row.row.hidden = true;
    return row;
  }

  #createFloorRow(): HTMLElement {
    const title = 'Values below this share of the range are transparent';
    const range = { min: 0, max: 255, step: 1, value: this.#floor };
    const { row, input, value } = sliderRow('floor', 'transparency floor', title, range, floorShown(this.#floor));
    input.addEventListener('input', () => {
      this.#floor = Number(input.value);
      value.textContent = floorShown(this.#floor);
      this.#base.planes.refill();
      this.#raymarch?.setFloor(this.#floor);
      this.#stage.changed();
    });
    return row;
  }

  /** Shows `next` beside the slider and draws with it. */
  #setOpacity(next: number): void {
    this.#opacity = next;
    this.#opacityRow.value.textContent = next.toFixed(2);
    this.#raymarch?.setDensity(densityOf(next));
    this.#stage.changed();
  }

  #recolour(): void {
    this.#base.planes.refill();
    if (this.#raymarch) {
      this.#raymarch.setColormap(this.#table);
      this.#setWindowOn(this.#raymarch);
      this.#raymarch.setGamma(this.#gamma);
    }
    this.#stage.changed();
  }

  /** The look settings of a room's view or a layer's display. */
  #applyLook(view: RoomView & { gamma?: number }): void {
    this.#applying = true;
    try {
      const bar = barSettingsOf(view);
      if (Object.keys(bar).length > 0) this.#colourBar.set(bar);
      if (typeof view.gamma === 'number' && view.gamma > 0 && view.gamma !== this.#gamma) {
        this.#gamma = view.gamma;
        this.#recolour();
      }
      if ((view.mode === 'slices' || view.mode === 'volume') && this.#base.mode() !== view.mode) {
        this.#base.setMode(view.mode);
        this.#opacityRow.row.hidden = view.mode !== 'volume';
      }
    } finally {
      this.#applying = false;
    }
  }

  applyView(view: RoomView): void {
    this.#applyLook(view);
    // Applied as given: the slider only shows it (its steps would round 0.605 to 0.61).
    if (isVolumeOpacity(view.opacity) && view.opacity !== this.#opacity) {
      this.#opacityRow.input.value = String(view.opacity);
      this.#setOpacity(view.opacity);
    }
  }

  applyDisplay(display: LayerDisplay): void {
    this.#applyLook(display);
  }

  applyLook(look: LayerLook): void {
    this.#base.applyLook(look);
  }

  pick(ray: THREE.Raycaster, kept: (point: THREE.Vector3) => boolean): ContentHit | null {
    const hit = this.#base.pick(ray, kept);
    return hit && { ...hit, voxel: { ...hit.voxel, value: this.#base.frame.sample(hit.voxel.x, hit.voxel.y, hit.voxel.z) } };
  }

  attach(): void {
    this.#base.attach();
  }

  dispose(): void {
    this.#base.dispose();
  }
}
