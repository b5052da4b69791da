/**
 * @module layer-row
 * One layer in the page's layer list: which is active (the room's entry), visibility, name,
 * kind and status (computing, stale or failed, with why), opacity, colour map (for images and
 * points), the plugin and version that made it with the changes of version it offers
 * (version-offers.ts), who made its last change ("by ada", said in full in its tooltip), up,
 * down and remove. A row is updated in place, so a slider being
 * dragged is never rebuilt under the pointer; it only reports what the user does.
 */
import type { LayerDisplay, LayerKind, LayerSource, LayerStale } from '../../core/wire/scene-types.ts';
import { h, iconButton, toolRow } from '../dom.ts';
import { COLORMAPS } from '../layers/volume/colormaps.ts';
import type { LayerMade } from './layer-made.ts';
import type { VersionOffer } from './version-offers.ts';

/** What a row shows. */
export interface LayerRowState {
  id: string;
  name: string;
  kind: LayerKind;
  visible: boolean;
  opacity: number;
  colormap: string | null;
  active: boolean;
  selected: boolean;
  /** `computing`, `loading`, `failed` (with `detail`), or '' when shown or idle. */
  status: string;
  detail: string;
  /** What made the layer's result (null until it has one). */
  made: LayerMade | null;
  source: LayerSource;
  /** Set when the layer shows a result its source no longer gives (why). */
  stale?: LayerStale;
  /** Changes of version the row offers (version-offers.ts). */
  offers?: VersionOffer[];
  /** Who made the layer's last change, as the host recorded it (null: not known). */
  by: string | null;
}

/** What the user did on a row. */
export interface LayerRowActions {
  change(id: string, change: LayerDisplay, mode: 'drag' | 'commit'): void;
  move(id: string, by: -1 | 1): void;
  remove(id: string): void;
  activate(id: string): void;
  select(id: string): void;
  /** Takes one of the row's version offers for layer `id`. */
  retarget(id: string, offer: VersionOffer): void;
}

const STATUS_WORDS: Record<string, string> = {
  stale: 'stale',
  computing: 'computing…',
  loading: 'loading…',
  refining: 'refining…',
  failed: 'failed',
};

export class LayerRow {
  readonly element: HTMLElement;
  readonly #active = h('input', {
    type: 'radio',
    name: 'active-layer',
    class: 'layer-active',
    'aria-label': 'active layer (the room entry)',
    'data-control': 'active',
  });
  readonly #visible = h('input', { type: 'checkbox', class: 'layer-visible', 'aria-label': 'visible', 'data-control': 'visible' });
  readonly #name: HTMLElement;
  readonly #kind = h('span', { class: 'layer-kind' });
  readonly #status = h('span', { class: 'layer-status', 'data-testid': 'layer-status', 'aria-live': 'polite' });
  readonly #made = h('span', { class: 'layer-made', 'data-testid': 'layer-made' });
  readonly #by = h('span', { class: 'layer-by', 'data-testid': 'layer-by' });
  readonly #offers = h('span', { class: 'layer-offers' });
  readonly #retarget: (offer: VersionOffer) => void;
  #offered = '';
  readonly #opacity = h('input', {
    type: 'range',
    class: 'slider',
    min: 0,
    max: 1,
    step: 0.01,
    'aria-label': 'opacity',
    'data-control': 'opacity',
  });
  readonly #opacityValue = h('output', { class: 'slice-value' });
  readonly #colormap = h('select', { class: 'select small', 'aria-label': 'colour map', 'data-control': 'colormap' });
  readonly #colormapRow = toolRow('label', 'map', null, this.#colormap);
  readonly #buttons: HTMLButtonElement[];

  constructor(id: string, actions: LayerRowActions) {
    this.#active.addEventListener('change', () => actions.activate(id));
    this.#visible.addEventListener('change', () => actions.change(id, { visible: this.#visible.checked }, 'commit'));
    this.#name = h('button', {
      type: 'button',
      class: 'layer-name',
      title: "Show this layer's controls on the stage",
      onclick: () => actions.select(id),
    });
    this.#retarget = (offer) => actions.retarget(id, offer);
    const opacity = (mode: 'drag' | 'commit') => (): void => {
      this.#opacityValue.textContent = Number(this.#opacity.value).toFixed(2);
      actions.change(id, { opacity: Number(this.#opacity.value) }, mode);
    };
    this.#opacity.addEventListener('input', opacity('drag'));
    this.#opacity.addEventListener('change', opacity('commit'));
    for (const name of COLORMAPS) this.#colormap.appendChild(h('option', { value: name }, name));
    this.#colormap.addEventListener('change', () => actions.change(id, { colormap: this.#colormap.value }, 'commit'));
    this.#buttons = [
      iconButton('↑', 'Move up (drawn over the layer above)', 'up', () => actions.move(id, 1)),
      iconButton('↓', 'Move down', 'down', () => actions.move(id, -1)),
      iconButton('✕', 'Remove the layer from the room', 'remove', () => actions.remove(id)),
    ];
    this.element = h(
      'li',
      { class: 'layer-row', 'data-testid': 'layer-row', 'data-layer': id },
      h(
        'div',
        { class: 'layer-head' },
        this.#active,
        this.#visible,
        this.#name,
        this.#kind,
        this.#status,
        h('span', { class: 'spacer' }),
        ...this.#buttons,
      ),
      h(
        'div',
        { class: 'layer-controls' },
        toolRow('label', 'opacity', null, this.#opacity, this.#opacityValue),
        this.#colormapRow,
        h('div', { class: 'slice-row layer-code' }, this.#made, this.#by, this.#offers),
      ),
    );
  }

  /** Shows `state`; `editable` false (a snapshot) leaves every control disabled. */
  show(state: LayerRowState, editable: boolean): void {
    this.#active.checked = state.active;
    this.#visible.checked = state.visible;
    this.#name.textContent = state.name;
    this.#kind.textContent = state.kind;
    this.#status.textContent = STATUS_WORDS[state.status] ?? '';
    this.#status.title = state.detail;
    this.element.dataset.status = state.status;
    this.element.classList.toggle('selected', state.selected);
    this.element.classList.toggle('hidden-layer', !state.visible);
    // A slider in the user's hand is not moved under it.
    if (document.activeElement !== this.#opacity) {
      this.#opacity.value = String(state.opacity);
      this.#opacityValue.textContent = state.opacity.toFixed(2);
    }
    this.#showMade(state);
    this.#by.textContent = state.by ? `by ${state.by}` : '';
    this.#by.title = state.by ? `${state.by} made the last change to this layer` : '';
    this.#colormapRow.hidden = state.colormap === null;
    if (state.colormap !== null) this.#colormap.value = state.colormap;
    const offers = [...this.#offers.querySelectorAll('button')];
    for (const control of [this.#active, this.#visible, this.#opacity, this.#colormap, ...offers, ...this.#buttons])
      control.disabled = !editable;
  }

  /** The plugin and version behind the layer, and the changes of version its row offers. */
  #showMade(state: LayerRowState): void {
    this.#made.textContent = state.made ? state.made.label + (state.made.pinned ? ' (pinned)' : '') : '';
    this.#made.title = state.made?.title ?? '';
    const offers = state.offers ?? [];
    const key = JSON.stringify(offers);
    if (key === this.#offered) return;
    this.#offered = key;
    const buttons = offers.map((offer) =>
      h(
        'button',
        {
          type: 'button',
          class: 'button ghost small',
          'data-control': offer.control,
          title: offer.title,
          onclick: () => this.#retarget(offer),
        },
        offer.label,
      ),
    );
    this.#offers.replaceChildren(...buttons);
  }
}
