/**
 * @module function-list
 * The catalog's "Functions" section: registered functions that no specimen shows, each
 * opening its schema panel on the stage like a dynamic specimen. Hidden when there are none.
 */
import type { CatalogEntry, FunctionInfo, SpecimenMetadata } from '../../core/wire/wire-types.ts';
import { h, replaceChildren } from '../dom.ts';

export class FunctionList {
  readonly element: HTMLElement;
  readonly #list = h('div', { class: 'function-list', role: 'list' });
  readonly #count = h('span', { class: 'count' });
  #selected: string | null = null;
  #names = new Set<string>();

  constructor(private readonly onSelect: (fn: FunctionInfo) => void) {
    this.element = h(
      'section',
      { class: 'functions', hidden: true, 'data-testid': 'functions' },
      h('h2', { class: 'pane-title' }, 'Functions', this.#count),
      this.#list,
    );
  }

  /** Shows the functions no catalog entry uses. */
  set(functions: FunctionInfo[], catalog: CatalogEntry[]): void {
    const shown = new Set(catalog.map((entry) => entry.function_name));
    const free = functions.filter((fn) => !shown.has(fn.name)).sort((a, b) => a.name.localeCompare(b.name));
    this.#names = new Set(free.map((fn) => fn.name));
    this.element.hidden = free.length === 0;
    this.#count.textContent = String(free.length);
    replaceChildren(
      this.#list,
      ...free.map((fn) =>
        h(
          'button',
          {
            class: 'fn-item',
            role: 'listitem',
            type: 'button',
            'data-name': fn.name,
            title: fn.schema.description ?? fn.name,
            onclick: () => this.onSelect(fn),
          },
          h('code', { class: 'fn' }, `${fn.name}()`),
          h('span', { class: 'tile-meta' }, fn.return_type.replace('_', ' ')),
        ),
      ),
    );
    this.select(this.#selected);
  }

  /** Function `name` is listed here. */
  has(name: string): boolean {
    return this.#names.has(name);
  }

  select(name: string | null): void {
    this.#selected = name;
    for (const item of this.#list.querySelectorAll<HTMLElement>('.fn-item')) item.classList.toggle('selected', item.dataset.name === name);
  }
}

/** Function `name` of `functions` as the metadata of a dynamic specimen of its own. */
export function functionMetadata(functions: FunctionInfo[], name: string): SpecimenMetadata {
  const fn = functions.find((f) => f.name === name);
  if (!fn) throw new Error(`The host has no function '${name}'.`);
  const description = typeof fn.schema.description === 'string' ? fn.schema.description : '';
  return {
    id: fn.name,
    display_name: fn.name,
    description,
    type: fn.return_type,
    tags: ['function'],
    is_dynamic: true,
    function_name: fn.name,
    thumbnail_url: '',
    schema: fn.schema,
  };
}
