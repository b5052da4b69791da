/**
 * @module layer-list
 * The page's layer list (the inspector's "Layers" section): the room's layers, top first as
 * napari lists them, one row each (layer-row.ts), and a way to add one: a specimen or function
 * of the catalog, an image of one of the host's remotes (its path typed in), or what the page
 * shows now with its parameters. It only reports what the
 * user does; room-scene.ts turns that into requests and shows what the room says.
 */
import type { LayerSource } from '../../core/wire/scene-types.ts';
import type { CatalogEntry, FunctionInfo } from '../../core/wire/wire-types.ts';
import { h, replaceChildren, smallButton } from '../dom.ts';
import { servedVersions, versionOffers } from './version-offers.ts';
import { LayerRow, type LayerRowActions, type LayerRowState } from './layer-row.ts';

export interface LayerListActions extends LayerRowActions {
  /** Add a layer from this source. */
  add(source: LayerSource): void;
  /** Add the image `NAME/path` of one of the host's remotes, read in place. */
  addRemote(remote: string): void;
  /** Add what the page shows now (its specimen or function with the panel's values). */
  addCurrent(): void;
}

export class LayerList {
  readonly element: HTMLElement;
  readonly #list = h('ol', { class: 'layer-list', 'data-testid': 'layer-list' });
  readonly #note = h('p', { class: 'layer-note' });
  readonly #picker = h('select', { class: 'select small', 'aria-label': 'layer to add', 'data-testid': 'add-layer-source' });
  readonly #remotePath = h('input', {
    class: 'input small',
    type: 'text',
    'aria-label': 'path of the image on the remote',
    placeholder: 'path/to/image.ome.zarr',
    'data-testid': 'add-remote-path',
    hidden: '',
  }) as HTMLInputElement;
  #remotes: string[] = [];
  #catalog: [CatalogEntry[], FunctionInfo[]] = [[], []];
  readonly #head = h('div', { class: 'section-head' }, h('h3', {}, 'Layers'));
  readonly #addForm: HTMLElement;
  readonly #rows = new Map<string, LayerRow>();
  /** The version each plugin serves (a pinned layer behind it is offered the update). */
  #served = new Map<string, string>();
  #functions: FunctionInfo[] = [];
  #last: [LayerRowState[], boolean, string] | null = null;
  readonly #actions: LayerListActions;

  constructor(actions: LayerListActions) {
    this.#actions = actions;
    const addButton = h(
      'button',
      { type: 'button', class: 'button small', 'data-testid': 'add-layer', onclick: () => this.#addPicked() },
      'Add',
    );
    const addTitle = 'Add what the page shows now, with its parameters, as a layer';
    const addCurrent = smallButton('Add current', addTitle, 'add-current-layer', () => actions.addCurrent());
    this.#picker.addEventListener('change', () => (this.#remotePath.hidden = !this.#picker.value.startsWith('remote:')));
    this.#addForm = h('div', { class: 'layer-add' }, this.#picker, this.#remotePath, addButton, addCurrent);
    this.element = h('section', { class: 'section layers', 'data-testid': 'layers' }, this.#head, this.#list, this.#note, this.#addForm);
  }

  /** Puts `control` in the section's head (the Snapshot button). */
  addToHead(control: HTMLElement): void {
    this.#head.append(control);
  }

  /** Shows `rows` (bottom first, as the scene lists them); `editable` false for a snapshot. */
  show(rows: LayerRowState[], editable: boolean, note: string): void {
    this.#last = [rows, editable, note];
    const seen = new Set<string>();
    const elements: HTMLElement[] = [];
    for (const state of [...rows].reverse()) {
      let row = this.#rows.get(state.id);
      if (!row) {
        row = new LayerRow(state.id, this.#actions);
        this.#rows.set(state.id, row);
      }
      row.show({ ...state, offers: versionOffers(state.made, state.stale, state.source, this.#served, this.#functions) }, editable);
      seen.add(state.id);
      elements.push(row.element);
    }
    for (const [id] of this.#rows) if (!seen.has(id)) this.#rows.delete(id);
    // Rows are moved, not rebuilt: a focused control keeps its focus.
    elements.forEach((element, index) => {
      if (this.#list.children[index] !== element) this.#list.insertBefore(element, this.#list.children[index] ?? null);
    });
    while (this.#list.children.length > elements.length) this.#list.lastElementChild!.remove();
    this.#note.textContent = note;
    this.#note.hidden = note === '';
    this.#addForm.hidden = !editable;
  }

  /** What the add picker offers: the catalog's specimens and the functions no specimen shows. */
  setCatalog(entries: CatalogEntry[], functions: FunctionInfo[]): void {
    this.#catalog = [entries, functions];
    this.#served = servedVersions(functions);
    this.#functions = functions;
    if (this.#last) this.show(...this.#last);
    const specimens = h(
      'optgroup',
      { label: 'Specimens' },
      ...entries.map((entry) => h('option', { value: `specimen:${entry.id}` }, entry.display_name || entry.id)),
    );
    const shown = new Set(entries.map((entry) => entry.function_name));
    const free = functions.filter((fn) => !shown.has(fn.name));
    const fns = h('optgroup', { label: 'Functions' }, ...free.map((fn) => h('option', { value: `function:${fn.name}` }, `${fn.name}()`)));
    const offered = this.#remotes.map((name) => h('option', { value: `remote:${name}` }, `${name}/…`));
    const remotes = h('optgroup', { label: 'Remotes' }, ...offered);
    replaceChildren(this.#picker, specimens, free.length > 0 ? fns : null, this.#remotes.length > 0 ? remotes : null);
    this.#remotePath.hidden = !this.#picker.value.startsWith('remote:');
  }

  /** The host's remotes (their names) the picker offers, each with a path to type. */
  setRemotes(names: string[]): void {
    this.#remotes = names;
    this.setCatalog(...this.#catalog);
  }

  #addPicked(): void {
    const [kind, ...rest] = this.#picker.value.split(':');
    const name = rest.join(':');
    if (!name) return;
    if (kind === 'remote') {
      const path = this.#remotePath.value.trim().replace(/^\/+/, '');
      if (path) this.#actions.addRemote(`${name}/${path}`);
      else this.#remotePath.focus();
      return;
    }
    this.#actions.add(kind === 'function' ? { function: name, params: {} } : { specimen: name, params: {} });
  }
}
