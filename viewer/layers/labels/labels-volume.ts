/**
 * @module labels-volume
 * A segmentation on the stage: its ids in categorical colours (label-colors.ts; 0 is
 * transparent) on the stage's three slices, or ray marched whole (labels-raymarch.ts), never
 * interpolated. Its panel lists the ids it holds with their colour and name; a click on one
 * selects it (and shares the selection as the layer's `labels.selected`), and "only
 * selected" draws the selected ids alone. Picking a voxel gives its id and name.
 */
import type { VolumeData } from '../../../core/wire/decoded-types.ts';
import type { LayerLabels } from '../../../core/wire/scene-types.ts';
import { h, replaceChildren } from '../../dom.ts';
import { hexOfRgb } from '../../../core/wire/label-colors.ts';
import { labelColour, type LabelSources } from '../../../core/wire/label-colors.ts';
import { labelTable } from './label-colors.ts';
import { labelIdsOf } from './label-ids.ts';
import { createLabelsRaymarch, type LabelsRaymarch } from './labels-raymarch.ts';
import { createVolumeBase } from '../volume/volume-base.ts';
import { volumeFrame } from '../volume/volume-frame.ts';
import type { VolumeContent, VolumeStage } from '../volume/volume-slices.ts';
import { takeBox } from './take-box.ts';

/** Ids listed in the panel at most (the rest are drawn, and named when pointed at). */
const LISTED = 24;

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
