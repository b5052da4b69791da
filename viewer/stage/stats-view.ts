/**
 * @module stats-view
 * Facts about what is on the stage (vertex and triangle counts, point count, volume shape and
 * value range, image size, bytes received), shown over the canvas.
 */
import type { SpecimenData } from '../../core/wire/decoded-types.ts';
import { formatBytes, formatCount, h, replaceChildren } from '../dom.ts';

/**
 * The event a stage panel sends (bubbling, `detail: { key, value }`) when a fact it shows
 * changed, e.g. how points are coloured after the colour switch.
 */
export const STAT_EVENT = 'vitrine-stat';

/** One fact: `key` names it for scripts (`data-stat`), `label` for people. */
export type Stat = Record<'key' | 'label' | 'value', string>;

/** The facts of a decoded result. */
export function statsOf(data: SpecimenData): Stat[] {
  switch (data.type) {
    case 'mesh':
      return [
        { key: 'vertices', label: 'vertices', value: formatCount(data.vertices.length / 3) },
        { key: 'triangles', label: 'triangles', value: formatCount(Math.floor(data.indices.length / 3)) },
        { key: 'normals', label: 'normals', value: data.normals ? 'sent' : 'computed' },
      ];
    case 'point_cloud':
      return [
        { key: 'points', label: 'points', value: formatCount(data.points.length / 3) },
        { key: 'colors', label: 'colour', value: data.colors ? 'RGB' : data.scalars ? 'scalar map' : 'none' },
      ];
    case 'volume': {
      const range = data.value_range ? `${fmt(data.value_range[0])} … ${fmt(data.value_range[1])}` : '';
      return [
        { key: 'shape', label: 'shape', value: data.shape.join(' × ') },
        { key: 'dtype', label: 'dtype', value: data.dtype },
        ...(range ? [{ key: 'range', label: 'range', value: range }] : []),
      ];
    }
    case 'image':
      return [
        { key: 'size', label: 'size', value: `${data.width} × ${data.height}` },
        { key: 'channels', label: 'channels', value: String(data.channels) },
        { key: 'dtype', label: 'dtype', value: data.dtype },
      ];
    case 'file':
      return [
        { key: 'file', label: 'file', value: data.fileName || 'data' },
        { key: 'bytes', label: 'size', value: formatBytes(data.bytes.byteLength) },
      ];
  }
}

function fmt(n: number): string {
  return Math.abs(n) >= 1e4 || (n !== 0 && Math.abs(n) < 1e-3) ? n.toExponential(2) : String(Number(n.toPrecision(4)));
}

export class StatsView {
  readonly element = h('dl', { class: 'stats', 'data-testid': 'stats', hidden: true });

  show(stats: Stat[]): void {
    this.element.hidden = stats.length === 0;
    replaceChildren(
      this.element,
      ...stats.map((s) => h('div', { class: 'stat', 'data-stat': s.key }, h('dt', {}, s.label), h('dd', {}, s.value))),
    );
  }

  /** Follows the STAT_EVENTs sent inside `area`: the fact an event names, when it is shown, takes its value. */
  follow(area: HTMLElement): void {
    area.addEventListener(STAT_EVENT, (event) => {
      const { key, value } = (event as CustomEvent<{ key: string; value: string }>).detail;
      const dd = this.element.querySelector(`[data-stat="${key}"] dd`);
      if (dd) dd.textContent = value;
    });
  }
}
