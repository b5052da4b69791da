/**
 * @module labels-volume
 * A segmentation on the stage: its ids in categorical colours (labelTable; 0 is
 * transparent) on the stage's three slices, or ray marched whole (labels-raymarch.ts), never
 * interpolated. Its panel lists the ids it holds with their colour and name; a click on one
 * selects it (and shares the selection as the layer's `labels.selected`), and "only
 * selected" draws the selected ids alone. Picking a voxel gives its id and name.
 */
import type { VolumeData } from '../../../core/wire/decoded-types.ts';
import type { LayerLabels } from '../../../core/wire/scene-types.ts';
import { h, replaceChildren } from '../../dom.ts';
import type { VoxelBox } from '../../../core/wire/edit-types.ts';
import { hexOfRgb, labelColour, type LabelSources } from '../../../core/wire/label-colors.ts';
import { labelIdsOf, type LabelIds } from './label-ids.ts';
import { createLabelsRaymarch, type LabelsRaymarch } from './labels-raymarch.ts';
import { createVolumeBase, type VolumeStage } from '../volume/volume-base.ts';
import { volumeFrame } from '../volume/volume-frame.ts';
import type { VolumeContent } from '../volume/volume-slices.ts';

/** Ids listed in the panel at most (the rest are drawn, and named when pointed at). */
const LISTED = 24;

/**
 * The RGBA table of every index of `ids` (alpha 0: not drawn), from the colours every view
 * shares: 0 (the background) is transparent; an id takes the layer's own colour for it
 * (`labels.colors`), else the result's (`label_colors`), else a categorical colour worked out
 * from the id alone: the one `labelColour` the host's pictures and painted meshes use too, so
 * every page, headset and picture gives label 7 the same colour (neighbouring ids stand apart).
 * With `show: selected`, only the ids in `selected` are drawn.
 */
export function labelTable(ids: LabelIds, sources: LabelSources, table: Uint8Array = new Uint8Array(ids.size * 4)): Uint8Array {
  table.fill(0);
  for (const id of ids.present) {
    const index = ids.indexOf(id);
    const colour = index >= 0 ? labelColour(id, sources) : null;
    if (!colour) continue;
    table.set(colour, index * 4);
    table[index * 4 + 3] = 255;
  }
  return table;
}

/**
 * Copies `next`'s voxels within `box` (voxel indices of level 0, z, y, x, ends exclusive) into
 * `held`, nothing outside it: an edit's changes taken into the segmentation the page holds.
 * False (nothing copied) when their grids differ.
 */
function takeBox(held: VolumeData, next: VolumeData, box: VoxelBox): boolean {
  const [d, hgt, w] = held.shape;
  if (next.shape.length !== 3 || next.shape[0] !== d || next.shape[1] !== hgt || next.shape[2] !== w) return false;
  const [z0, y0, x0] = box.from.map((v) => Math.max(0, v)) as [number, number, number];
  const z1 = Math.min(box.to[0], d!);
  const y1 = Math.min(box.to[1], hgt!);
  const x1 = Math.min(box.to[2], w!);
  for (let z = z0; z < z1; z++)
    for (let y = y0; y < y1; y++) {
      const row = (z * hgt! + y) * w!;
      for (let x = x0; x < x1; x++) held.data[row + x] = next.data[row + x]!;
    }
  return true;
}

export function createLabelsVolume(volume: VolumeData, stage: VolumeStage): VolumeContent {
  let ids = labelIdsOf(volume.data);
  const names = volume.label_names ?? {};
  const sources: LabelSources = { resultColors: volume.label_colors, labels: {} };
  let table: Uint8Array = labelTable(ids, sources);
  let raymarch: LabelsRaymarch | null = null;
  const nameOf = (id: number): string | null => names[String(id)] ?? null;
  const frame = volumeFrame(volume);
  const at = (x: number, y: number, z: number): number => ids.index[(z * frame.count.y + y) * frame.count.x + x]!;
  const base = createVolumeBase(frame, {
    title: 'Labels',
    alphaTest: 0.01,
    pixel(x, y, z, out, o) {
      const k = at(x, y, z) * 4;
      out[o] = table[k]!;
      out[o + 1] = table[k + 1]!;
      out[o + 2] = table[k + 2]!;
      out[o + 3] = table[k + 3]!;
    },
    seen: (x, y, z) => table[at(x, y, z) * 4 + 3]! > 0,
    march() {
      raymarch = createLabelsRaymarch(ids, frame.count, frame.dims, table, stage.depth);
      return raymarch;
    },
    stage,
    picked: (mode) => content.onViewChange?.({ mode }),
  });

  const legend = h('div', { class: 'label-legend', 'data-testid': 'label-legend' });
  const onlySelected = h('input', { type: 'checkbox', 'data-testid': 'labels-only-selected' });
  const share = (labels: LayerLabels): void => {
    recolour(labels);
    content.onDisplayChange?.({ labels });
  };
  onlySelected.addEventListener('change', () => share({ ...sources.labels, show: onlySelected.checked ? 'selected' : 'all' }));
  const renderLegend = (): void => {
    const selected = new Set(sources.labels?.selected ?? []);
    const chips = ids.present.slice(0, LISTED).map((id) => {
      const colour = labelColour(id, { ...sources, labels: { ...sources.labels, show: 'all' } });
      const chip = h(
        'button',
        { type: 'button', class: `label-chip${selected.has(id) ? ' selected' : ''}`, 'data-label': id, title: `Select label ${id}` },
        h('span', { class: 'label-swatch', style: `background:${colour ? hexOfRgb(colour) : 'transparent'}` }),
        nameOf(id) ? `${id} ${nameOf(id)}` : String(id),
      );
      chip.addEventListener('click', () => {
        const next = selected.has(id) ? [...selected].filter((s) => s !== id) : [...selected, id];
        share({ ...sources.labels, selected: next });
      });
      return chip;
    });
    const more = ids.present.length > LISTED ? h('span', { class: 'label-more' }, `+${ids.present.length - LISTED} more`) : null;
    replaceChildren(legend, ...chips, more);
    onlySelected.checked = sources.labels?.show === 'selected';
  };
  const recolour = (labels: LayerLabels | undefined): void => {
    sources.labels = labels ?? {};
    table = labelTable(ids, sources, table);
    base.planes.refill();
    raymarch?.setTable(table);
    renderLegend();
    stage.changed();
  };
  renderLegend();

  const panel = h(
    'div',
    { class: 'slice-panel labels-panel', 'data-testid': 'slice-panel' },
    base.title,
    ...base.planes.rows,
    base.viewRow,
    h('div', { class: 'slice-row label-count' }, h('span', { class: 'slice-axis' }, 'ids'), `${ids.present.length} labels`),
    legend,
    h('label', { class: 'slice-row' }, onlySelected, 'only selected'),
  );

  const content: VolumeContent = {
    object: base.frame.outer,
    panel,
    applyView: (view) => base.setMode(view.mode),
    applyDisplay(display) {
      base.setMode(display.mode);
      if (JSON.stringify(display.labels ?? {}) !== JSON.stringify(sources.labels)) recolour(display.labels);
    },
    applyLook: base.applyLook,
    pick(ray, kept) {
      const hit = base.pick(ray, kept);
      if (!hit) return null;
      const { x, y, z } = hit.voxel;
      const id = ids.idOf(at(x, y, z));
      return { ...hit, voxel: { x, y, z, value: id }, label: { id, name: nameOf(id) } };
    },
    attach: base.attach,
    relabel(next, box) {
      if (!takeBox(volume, next, box)) return false;
      // The ids are found again (an edit may bring ids the table has no entry for), then the
      // slices are drawn again; a ray-marched view is made again on its next use.
      ids = labelIdsOf(volume.data);
      table = labelTable(ids, sources);
      raymarch = null;
      base.remarch();
      recolour(sources.labels);
      return true;
    },
    dispose: base.dispose,
  };
  return content;
}
