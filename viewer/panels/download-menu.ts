/**
 * @module download-menu
 * "Download": the formats a dynamic specimen's result can be saved as (each a `/data` link
 * with the same parameters and room, served as an attachment), for Blender, ParaView, MeshLab,
 * napari or numpy. Static specimens keep their own file (the raw data link). It sits in the
 * top bar as a button whose list opens over the page (nothing below it moves) and closes on
 * a choice, a click elsewhere or Escape.
 */
import type { DeliveryQuery } from '../../core/wire/wire-types.ts';
import { h, replaceChildren } from '../dom.ts';

interface DownloadFormat {
  label: string;
  hint: string;
  delivery: DeliveryQuery;
}

/** The download formats of each result type, most useful first. */
export const DOWNLOAD_FORMATS: Readonly<Record<string, readonly DownloadFormat[]>> = {
  mesh: [
    { label: 'GLB', hint: 'glTF binary: Blender, Godot, web', delivery: { format: 'glb' } },
    { label: 'GLB (meshopt)', hint: 'compressed glTF for three.js and Babylon', delivery: { format: 'glb', compress: 'meshopt' } },
    { label: 'STL', hint: 'binary STL: slicers, CAD', delivery: { format: 'stl' } },
    { label: 'OBJ', hint: 'Wavefront OBJ: almost anything', delivery: { format: 'obj' } },
  ],
  volume: [{ label: 'NPY', hint: 'NumPy array: numpy.load', delivery: { format: 'npy' } }],
  point_cloud: [{ label: 'PLY', hint: 'binary PLY: MeshLab, CloudCompare, Open3D', delivery: { format: 'ply' } }],
  image: [{ label: 'PNG', hint: 'PNG (16-bit for uint16 and float images)', delivery: { format: 'png' } }],
};

export class DownloadMenu {
  readonly #list = h('ul', { class: 'download-list' });
  readonly element = h(
    'details',
    { class: 'download-menu', 'data-testid': 'download-menu', hidden: true },
    h('summary', { class: 'button ghost small', title: 'Save the current result' }, 'Download'),
    this.#list,
  );

  constructor() {
    const close = (): void => {
      this.element.open = false;
    };
    this.#list.addEventListener('click', (event) => {
      if ((event.target as Element).closest('a')) close();
    });
    document.addEventListener('pointerdown', (event) => {
      if (this.element.open && !this.element.contains(event.target as Node)) close();
    });
    this.element.addEventListener('keydown', (event) => {
      if (event.key !== 'Escape' || !this.element.open) return;
      close();
      this.element.querySelector('summary')?.focus();
    });
  }

  /** Offers the formats of `type`, each linked by `urlOf`; hides the menu for a type without any. */
  show(type: string, urlOf: (delivery: DeliveryQuery) => string): void {
    const formats = DOWNLOAD_FORMATS[type] ?? [];
    this.element.hidden = formats.length === 0;
    replaceChildren(
      this.#list,
      ...formats.map((f) =>
        h(
          'li',
          {},
          h(
            'a',
            {
              class: 'link',
              href: urlOf(f.delivery),
              download: '',
              title: f.hint,
              'data-format': f.delivery.compress ? `${f.delivery.format}+${f.delivery.compress}` : String(f.delivery.format),
            },
            h('span', {}, f.label),
            h('span', { class: 'download-hint' }, f.hint),
          ),
        ),
      ),
    );
  }

  hide(): void {
    this.element.hidden = true;
    this.element.open = false;
  }
}
