/**
 * @module catalog-view
 * The catalog as a grid of tiles (thumbnail, name, tags, a static/dynamic badge) with a
 * filter box matching names, ids, types, tags and descriptions. Its thumbnails may be told to
 * wait (for the stage's first picture): the tiles show at once, their images once let go.
 * A room closed to the visitor shows a sign-in prompt in place of the tiles.
 */
import type { CatalogEntry } from '../../core/wire/wire-types.ts';
import { h, replaceChildren } from '../dom.ts';
import { pageToken } from '../page-token.ts';
import { describeError, isRoomClosed } from './request-failure.ts';
import { askToSignIn } from './sign-in.ts';

/** Thumbnails told to wait wait at most this long (a long computation, a hidden layer). */
const THUMBNAILS_WAIT_MS = 4000;

export class CatalogView {
  readonly element: HTMLElement;
  readonly #grid = h('div', { class: 'catalog-grid', role: 'list', 'data-testid': 'catalog' });
  readonly #filter = h('input', {
    type: 'search',
    class: 'filter',
    placeholder: 'Filter by name, tag, type…',
    'aria-label': 'Filter specimens',
    'data-testid': 'filter',
  });
  readonly #count = h('span', { class: 'count', 'data-testid': 'catalog-count' });
  #entries: CatalogEntry[] = [];
  #selected: string | null = null;
  /** Thumbnails load (until `thumbnailsAfter` says wait). */
  #thumbnails = true;

  constructor(
    private readonly thumbnailUrl: (entry: CatalogEntry) => string,
    private readonly onSelect: (entry: CatalogEntry) => void,
  ) {
    this.#filter.addEventListener('input', () => this.#render());
    this.element = h(
      'div',
      { class: 'catalog-pane-inner' },
      h('div', { class: 'pane-head' }, h('h2', { class: 'pane-title' }, 'Specimens', this.#count), this.#filter),
      this.#grid,
    );
    this.showLoading();
  }

  /** A skeleton while the catalog loads. */
  showLoading(): void {
    replaceChildren(this.#grid, ...Array.from({ length: 6 }, () => h('div', { class: 'tile skeleton' })));
  }

  /** The catalog could not be loaded. */
  showError(message: string, retry: () => void): void {
    replaceChildren(
      this.#grid,
      h(
        'div',
        { class: 'catalog-error', role: 'alert' },
        h('strong', {}, 'The catalog could not be loaded'),
        h('p', {}, message),
        h('button', { class: 'button', onclick: retry }, 'Try again'),
      ),
    );
  }

  /** Why the catalog of `room` did not load: a room closed to the visitor asks them to sign in, anything else offers `retry`. */
  showFailure(error: unknown, room: string, retry: () => void): void {
    if (isRoomClosed(error)) this.showClosed(room, pageToken() !== undefined, () => askToSignIn());
    else this.showError(describeError(error), retry);
  }

  /**
   * The room is closed to whoever the page is now (the host would not list it): says so and
   * offers to sign in (as someone else, when signed in already) in place of an error.
   */
  showClosed(room: string, signedIn: boolean, signIn: () => void): void {
    const what = signedIn
      ? 'You are signed in as someone who may not see it. Ask its owner to add you, or sign in as a member.'
      : 'Sign in as one of its members to see its specimens and layers.';
    replaceChildren(
      this.#grid,
      h(
        'div',
        { class: 'catalog-closed', role: 'status', 'data-testid': 'room-closed' },
        h('strong', {}, `The room ${room} is closed to you`),
        h('p', {}, what),
        h('button', { class: 'button', type: 'button', 'data-testid': 'room-sign-in', onclick: signIn },
          signedIn ? 'Sign in as someone else' : 'Sign in'),
      ),
    );
  }

  /** Tiles get their images only once `ready` settles, or after a few seconds (those shown meanwhile get them then). */
  thumbnailsAfter(ready: Promise<unknown>): void {
    this.#thumbnails = false;
    // Readable from outside (tests): `waiting`, then `ready` or `timeout`.
    this.#grid.dataset.thumbnails = 'waiting';
    const late = new Promise<string>((go) => setTimeout(() => go('timeout'), THUMBNAILS_WAIT_MS));
    void Promise.race([ready.then(() => 'ready'), late]).then((why) => {
      this.#grid.dataset.thumbnails = why;
      this.#thumbnails = true;
      for (const img of this.#grid.querySelectorAll<HTMLImageElement>('img.thumb[data-src]')) {
        img.src = img.dataset.src!;
        delete img.dataset.src;
      }
    });
  }

  setEntries(entries: CatalogEntry[]): void {
    this.#entries = [...entries].sort((a, b) => a.display_name.localeCompare(b.display_name));
    this.#render();
  }

  /** The catalog lists specimen `id`. */
  has(id: string): boolean {
    return this.#entries.some((entry) => entry.id === id);
  }

  /** The first specimen (by name) that shows function `name`, if any. */
  showing(name: string): string | null {
    return this.#entries.find((entry) => entry.is_dynamic && entry.function_name === name)?.id ?? null;
  }

  /** Highlights the selected tile. */
  select(id: string | null): void {
    this.#selected = id;
    for (const tile of this.#grid.querySelectorAll<HTMLElement>('.tile[data-id]')) {
      const on = tile.dataset.id === id;
      tile.classList.toggle('selected', on);
      tile.setAttribute('aria-current', on ? 'true' : 'false');
    }
  }

  #render(): void {
    const words = this.#filter.value.toLowerCase().split(/\s+/).filter(Boolean);
    const shown = this.#entries.filter((entry) => {
      const text = [entry.display_name, entry.id, entry.type, entry.description, ...entry.tags, entry.is_dynamic ? 'dynamic' : 'static']
        .join(' ')
        .toLowerCase();
      return words.every((w) => text.includes(w));
    });
    this.#count.textContent = words.length ? `${shown.length} of ${this.#entries.length}` : String(this.#entries.length);
    if (shown.length === 0) {
      replaceChildren(
        this.#grid,
        h('p', { class: 'empty' }, this.#entries.length ? 'No specimen matches this filter.' : 'The catalog is empty.'),
      );
      return;
    }
    replaceChildren(this.#grid, ...shown.map((entry) => this.#tile(entry)));
    this.select(this.#selected);
  }

  #tile(entry: CatalogEntry): HTMLElement {
    const url = this.thumbnailUrl(entry);
    const source = this.#thumbnails ? { src: url } : { 'data-src': url };
    const img = h('img', { class: 'thumb', alt: '', loading: 'lazy', decoding: 'async', ...source });
    img.addEventListener('error', () => img.classList.add('broken'), { once: true });
    return h(
      'button',
      {
        class: 'tile',
        role: 'listitem',
        type: 'button',
        'data-id': entry.id,
        title: entry.description || entry.display_name,
        onclick: () => this.onSelect(entry),
      },
      h(
        'div',
        { class: 'thumb-wrap' },
        img,
        h('span', { class: `badge ${entry.is_dynamic ? 'dynamic' : 'static'}` }, entry.is_dynamic ? 'dynamic' : 'static'),
      ),
      h('span', { class: 'tile-name' }, entry.display_name),
      h('span', { class: 'tile-meta' }, entry.type.replace('_', ' ')),
      entry.tags.length ? h('span', { class: 'tags' }, ...entry.tags.slice(0, 3).map((t) => h('span', { class: 'tag' }, t))) : null,
    );
  }
}
