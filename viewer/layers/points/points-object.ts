/**
 * @module points-object
 * A decoded point cloud as three.js points, with a colour picker of its own: the result's
 * own per-point colours (the default when it has them), its scalars through a colour map
 * with a window (colour-bar.ts, the default when it has only scalars), or one colour.
 * Per-point colours are sRGB (as written by plugins and files); they are turned into the
 * linear values three.js blends with, and drawn without tone mapping, so a saturated pink
 * stays pink rather than washing out to white.
 */
import * as THREE from 'three';
import { STAT_EVENT } from '../../stage/stats-view.ts';
import type { PointCloudData } from '../../../core/wire/decoded-types.ts';
import { h, toolRow } from '../../dom.ts';
import { barChangeOf, barSettingsOf, createColourBar, type ColourBarState } from '../volume/colour-bar.ts';
import { colormapTable, finiteRange, type ColormapName } from '../volume/colormaps.ts';
import { DEFAULT_COLORMAP } from '../../../core/wire/layer-defaults.ts';
import { setOwnOpacity } from '../../stage/layer-look.ts';
import { linearColors } from '../mesh/mesh-object.ts';
import type { StageContent } from '../../stage/stage-content.ts';
import { defaultWindow } from '../../../core/wire/window-level.ts';

/** How the points are coloured. */
export type PointColouring = 'own' | 'scalar' | 'single';

/** A point cloud on the stage, with its colour controls. */
export interface PointsContent extends StageContent {
  panel: HTMLElement;
}

const SINGLE = new THREE.Color(0x9cc7ee);

/** Scalars through a colour map over `[low, high]`, as linear floats. */
export function scalarColours(scalars: Float32Array, map: ColormapName, low: number, high: number): Float32Array {
  const table = linearColors(colormapTable(map));
  const span = high - low || 1;
  const out = new Float32Array(scalars.length * 3);
  for (let i = 0; i < scalars.length; i++) {
    const k = Math.max(0, Math.min(255, Math.round(((scalars[i]! - low) / span) * 255))) * 3;
    for (let c = 0; c < 3; c++) out[i * 3 + c] = table[k + c]!;
  }
  return out;
}

/**
 * The cloud with its points reordered so the rarest colours come last: drawn last without
 * depth writes, a few pink stars among thousands of blue ones stay visible instead of being
 * buried under their neighbours. Clouds without colours are returned as they are.
 */
export function rareColoursLast(cloud: PointCloudData): PointCloudData {
  const colors = cloud.colors;
  const count = cloud.points.length / 3;
  if (!colors || colors.length !== count * 3) return cloud;
  const scale = colors instanceof Uint8Array ? 1 / 16 : 15.99;
  const binOf = (i: number): number => ((colors[i * 3]! * scale) << 8) | ((colors[i * 3 + 1]! * scale) << 4) | (colors[i * 3 + 2]! * scale);
  const frequency = new Map<number, number>();
  for (let i = 0; i < count; i++) frequency.set(binOf(i), (frequency.get(binOf(i)) ?? 0) + 1);
  const order = Uint32Array.from({ length: count }, (_, i) => i).sort(
    (a, b) => frequency.get(binOf(b))! - frequency.get(binOf(a))! || a - b,
  );
  const points = new Float32Array(count * 3);
  const outColours = colors instanceof Uint8Array ? new Uint8Array(count * 3) : new Float32Array(count * 3);
  const scalars = cloud.scalars && cloud.scalars.length === count ? new Float32Array(count) : null;
  order.forEach((from, to) => {
    for (let c = 0; c < 3; c++) {
      points[to * 3 + c] = cloud.points[from * 3 + c]!;
      outColours[to * 3 + c] = colors[from * 3 + c]!;
    }
    if (scalars) scalars[to] = cloud.scalars![from]!;
  });
  return { type: 'point_cloud', points, colors: outColours, scalars };
}

/** How the facts over the canvas name each colouring (the same words as stats-view.ts). */
const COLOURING_LABELS: Record<PointColouring, string> = { own: 'RGB', scalar: 'scalar map', single: 'one colour' };

/** A point cloud on the stage; `onChange` is called after its colours or size changed. */
export function createPointsObject(original: PointCloudData, onChange: () => void = () => {}): PointsContent {
  const cloud = rareColoursLast(original);
  const geometry = new THREE.BufferGeometry();
  geometry.setAttribute('position', new THREE.BufferAttribute(cloud.points, 3));
  const count = cloud.points.length / 3;
  const colors = cloud.colors && cloud.colors.length === count * 3 ? cloud.colors : null;
  const scalars = cloud.scalars && cloud.scalars.length === count ? cloud.scalars : null;
  geometry.computeBoundingSphere();
  const radius = geometry.boundingSphere?.radius ?? 1;
  const baseSize = Math.max(radius * 0.016, 1e-4);
  const material = new THREE.PointsMaterial({ size: baseSize, sizeAttenuation: true, toneMapped: false, depthWrite: false });

  let colouring: PointColouring = colors ? 'own' : scalars ? 'scalar' : 'single';
  const [min, max] = scalars ? finiteRange(scalars) : [0, 1];
  const opening = scalars ? defaultWindow(scalars, min, max) : { low: 0, high: 1 };
  /** True while a room's view is being applied: those changes are not the user's to share. */
  let applying = false;
  let barState: ColourBarState = { map: DEFAULT_COLORMAP, low: opening.low, high: opening.high };
  const colourBar = scalars
    ? createColourBar({
        range: [min, max],
        initial: barState,
        onChange: (state) => {
          const change = barChangeOf(barState, state);
          barState = state;
          paint();
          if (!applying) content.onViewChange?.(change);
        },
      })
    : null;

  const paint = (): void => {
    if (colouring === 'single') {
      geometry.deleteAttribute('color');
      material.vertexColors = false;
      material.color.copy(SINGLE);
    } else {
      const state = colourBar?.state();
      const rgb = colouring === 'own' ? linearColors(colors!) : scalarColours(scalars!, state!.map, state!.low, state!.high);
      geometry.setAttribute('color', new THREE.BufferAttribute(rgb, 3));
      material.vertexColors = true;
      material.color.set(0xffffff);
    }
    material.needsUpdate = true;
    if (colourBar) colourBar.element.hidden = colouring !== 'scalar';
    panel.dataset.colouring = colouring;
    // The facts over the canvas say how the points are coloured now.
    panel.dispatchEvent(new CustomEvent(STAT_EVENT, { bubbles: true, detail: { key: 'colors', value: COLOURING_LABELS[colouring] } }));
    onChange();
  };

  // Point size: a factor of the size fitted to the cloud, on a doubling scale.
  const sizeInput = h('input', {
    type: 'range',
    min: '-2',
    max: '3',
    step: '0.25',
    value: '0',
    'aria-label': 'point size',
    'data-testid': 'point-size',
  }) as HTMLInputElement;
  const sizeValue = h('span', { class: 'slice-value', 'data-testid': 'point-size-value' }, '1×');
  sizeInput.addEventListener('input', () => {
    const factor = 2 ** Number(sizeInput.value);
    material.size = baseSize * factor;
    sizeValue.textContent = `${Number(factor.toPrecision(3))}×`;
    panel.dataset.pointSize = String(factor);
    onChange();
  });

  const picker = h('select', { class: 'select small', 'aria-label': 'point colours', 'data-testid': 'point-colouring' });
  if (colors) picker.appendChild(h('option', { value: 'own' }, 'own colours'));
  if (scalars) picker.appendChild(h('option', { value: 'scalar' }, 'by scalar'));
  picker.appendChild(h('option', { value: 'single' }, 'one colour'));
  picker.value = colouring;
  picker.addEventListener('change', () => {
    colouring = picker.value as PointColouring;
    paint();
  });
  const panel = h(
    'div',
    { class: 'slice-panel', 'data-testid': 'points-panel' },
    h('div', { class: 'slice-title' }, 'Points'),
    toolRow('label', 'colour', null, picker),
    toolRow('label', 'size', null, sizeInput, sizeValue),
    colourBar?.element,
  );
  panel.dataset.pointSize = '1';
  paint();
  const content: PointsContent = {
    object: new THREE.Points(geometry, material),
    panel,
    // The room's window and colour map colour the scalars; its opacity fades the points.
    applyView(view) {
      applying = true;
      try {
        const bar = barSettingsOf(view);
        if (colourBar && Object.keys(bar).length > 0) colourBar.set(bar);
        if (typeof view.opacity === 'number' && view.opacity >= 0 && view.opacity <= 1) {
          setOwnOpacity(material, view.opacity);
          onChange();
        }
      } finally {
        applying = false;
      }
    },
    dispose() {
      geometry.dispose();
      material.dispose();
    },
  };
  return content;
}
