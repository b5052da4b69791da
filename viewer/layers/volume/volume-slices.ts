/**
 * @module volume-slices
 * A scalar volume on the stage: three orthogonal slices through it (the stage's slice point,
 * slice-planes.ts), each with a slider, and a colour map picker; or, switched to the `volume`
 * view, drawn whole by ray marching (volume-raymarch.ts) with an opacity control: the room's
 * view `opacity`, shown and shared as the same 0..1 number (volume-opacity.ts). It stands in
 * its physical frame (volume-frame.ts). Colours follow a window (colour-bar.ts) that opens on
 * the histogram's defaults (window-level.ts), with the layer's gamma; samples under the floor
 * are see-through, so slices do not hide each other.
 */
import type { VolumeData } from '../../../core/wire/decoded-types.ts';
import type { RoomView } from '../../../core/wire/wire-types.ts';
import { h } from '../../dom.ts';
import { barChangeOf, barSettingsOf, createColourBar } from './colour-bar.ts';
import { colormapTable, finiteRange, type ColormapName } from './colormaps.ts';
import type { SceneDepthUniforms } from '../../stage/scene-depth.ts';
import type { SliceLink } from './slice-link.ts';
import type { StageContent } from '../../stage/stage-content.ts';
import { createVolumeBase } from './volume-base.ts';
import { volumeFrame } from './volume-frame.ts';
import { densityOf, isVolumeOpacity, VOLUME_OPACITY_DEFAULT } from './volume-opacity.ts';
import { createRaymarchedVolume, type RaymarchedVolume } from './volume-raymarch.ts';
import { defaultWindow } from './window-level.ts';

/** A volume on the stage, with its controls. */
export interface VolumeContent extends StageContent {
  /** Sliders, the colour bar and the view picker, for the stage's tool area. */
  panel: HTMLElement;
}

/** What a volume needs of the stage: its slice point and its scene depth (for the ray marcher). */
export interface VolumeStage {
  link: SliceLink;
  depth: SceneDepthUniforms;
  /** Something changed the picture: draw again. */
  changed(): void;
}

export function createVolumeSlices(volume: VolumeData, stage: VolumeStage): VolumeContent {
  const data = volume.data;
  const [min, max] = volume.value_range ?? finiteRange(data);
  const span = max - min || 1;
  const opening = defaultWindow(data, min, max);
  let [low, high] = [opening.low, opening.high];
  let gamma = 1;
  let mapName: ColormapName = 'viridis';
  let table = colormapTable(mapName);
  /** Colour-map index (0..255) under which a voxel is transparent: past the background, at least a sliver. */
  let floor = Math.max(3, Math.min(255, Math.round(((opening.floor - low) / (high - low || 1)) * 255)));
  /** True while a room's view or a layer's display is applied: those changes are not the user's to share. */
  let applying = false;
  const share = (change: RoomView): void => {
    if (!applying) content.onViewChange?.(change);
  };
  /** The colour-map index of a sample. */
  const indexOf = (v: number): number => {
    const t = Math.max(0, Math.min(1, (v - low) / (high - low || 1)));
    return Math.round((gamma === 1 ? t : t ** gamma) * 255);
  };
  let raymarch: RaymarchedVolume | null = null;
  const frame = volumeFrame(volume);
  const base = createVolumeBase(frame, {
    title: '',
    alphaTest: 0.5,
    pixel(x, y, z, out, o) {
      const k = indexOf(frame.sample(x, y, z));
      out[o] = table[k * 3]!;
      out[o + 1] = table[k * 3 + 1]!;
      out[o + 2] = table[k * 3 + 2]!;
      // Values under the floor (empty space, noise) are see-through, so slices do not hide each other.
      out[o + 3] = k < floor ? 0 : 255;
    },
    seen: (x, y, z) => indexOf(frame.sample(x, y, z)) >= floor,
    // The readout reads any voxel of a slice, see-through or not.
    pickedOnSlice: () => true,
    march() {
      const { count, dims } = frame;
      raymarch = createRaymarchedVolume(data, { w: count.x, h: count.y, d: count.z }, { min, span }, dims, table, stage.depth);
      raymarch.setWindow((low - min) / span, (high - min) / span);
      raymarch.setFloor(floor);
      raymarch.setDensity(densityOf(opacity));
      raymarch.setGamma(gamma);
      return raymarch;
    },
    link: stage.link,
    changed: stage.changed,
    picked(mode) {
      opacityRow.hidden = mode !== 'volume';
      share({ mode });
    },
  });

  let opacity = VOLUME_OPACITY_DEFAULT;
  const opacityValue = h('output', { class: 'slice-value', 'data-testid': 'volume-opacity' }, opacity.toFixed(2));
  const opacityInput = h('input', {
    type: 'range',
    class: 'slider',
    min: 0,
    max: 1,
    step: 0.01,
    value: opacity,
    'aria-label': 'opacity',
    'data-axis': 'opacity',
  });
  /** Shows `next` beside the slider and draws with it. */
  const setOpacity = (next: number): void => {
    opacity = next;
    opacityValue.textContent = opacity.toFixed(2);
    raymarch?.setDensity(densityOf(opacity));
    stage.changed();
  };
  opacityInput.addEventListener('input', () => {
    setOpacity(Number(opacityInput.value));
    share({ opacity });
  });
  const opacityRow = h(
    'label',
    { class: 'slice-row', title: "How opaque the volume is: the room's view opacity, shared while following" },
    h('span', { class: 'slice-axis' }, 'opacity'),
    opacityInput,
    opacityValue,
  );
  opacityRow.hidden = true;
  const recolour = (): void => {
    base.planes.refill();
    raymarch?.setColormap(table);
    raymarch?.setWindow((low - min) / span, (high - min) / span);
    raymarch?.setGamma(gamma);
    stage.changed();
  };
  const colourBar = createColourBar({
    range: [min, max],
    initial: { map: 'viridis', low, high },
    onChange(state) {
      const change = barChangeOf({ low, high, map: mapName }, state);
      mapName = state.map;
      table = colormapTable(state.map);
      [low, high] = [state.low, state.high];
      recolour();
      share(change);
    },
  });
  const floorValue = h('output', { class: 'slice-value' }, `${Math.round((floor / 255) * 100)}%`);
  const floorInput = h('input', {
    type: 'range',
    class: 'slider',
    min: 0,
    max: 255,
    step: 1,
    value: floor,
    'aria-label': 'transparency floor',
    'data-axis': 'floor',
  });
  floorInput.addEventListener('input', () => {
    floor = Number(floorInput.value);
    floorValue.textContent = `${Math.round((floor / 255) * 100)}%`;
    base.planes.refill();
    raymarch?.setFloor(floor);
    stage.changed();
  });
  const panel = h(
    'div',
    { class: 'slice-panel', 'data-testid': 'slice-panel' },
    base.title,
    ...base.planes.rows,
    h(
      'label',
      { class: 'slice-row', title: 'Values below this share of the range are transparent' },
      h('span', { class: 'slice-axis' }, 'floor'),
      floorInput,
      floorValue,
    ),
    colourBar.element,
    opacityRow,
    base.viewRow,
  );

  /** The look settings of a room's view or a layer's display. */
  const applyLook = (view: RoomView & { gamma?: number }): void => {
    applying = true;
    try {
      const bar = barSettingsOf(view);
      if (Object.keys(bar).length > 0) colourBar.set(bar);
      if (typeof view.gamma === 'number' && view.gamma > 0 && view.gamma !== gamma) {
        gamma = view.gamma;
        recolour();
      }
      if ((view.mode === 'slices' || view.mode === 'volume') && base.mode() !== view.mode) {
        base.setMode(view.mode);
        opacityRow.hidden = view.mode !== 'volume';
      }
    } finally {
      applying = false;
    }
  };

  const content: VolumeContent = {
    object: base.frame.outer,
    panel,
    applyView(view) {
      applyLook(view);
      // Applied as given: the slider only shows it (its steps would round 0.605 to 0.61).
      if (isVolumeOpacity(view.opacity) && view.opacity !== opacity) {
        opacityInput.value = String(view.opacity);
        setOpacity(view.opacity);
      }
    },
    applyDisplay: (display) => applyLook(display),
    applyLook: base.applyLook,
    pick(ray, kept) {
      const hit = base.pick(ray, kept);
      return hit && { ...hit, voxel: { ...hit.voxel, value: base.frame.sample(hit.voxel.x, hit.voxel.y, hit.voxel.z) } };
    },
    attach: base.attach,
    dispose: base.dispose,
  };
  return content;
}
