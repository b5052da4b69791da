/**
 * @module unknown-params
 * Parameters the panel holds that its schema does not know, e.g. from a shared link made for
 * an older version of the function. They are still sent (the host says why it refuses them),
 * but they are shown above the fields, each with its value and a Remove button, so the user
 * sees what is wrong and can drop it.
 */
import { h, replaceChildren } from '../../dom.ts';

export class UnknownParams {
  readonly element: HTMLElement;
  readonly #list = h('ul', { class: 'unknown-list' });
  readonly #onRemove: (name: string) => void;

  /** `onRemove` drops the named value (and sends the values without it). */
  constructor(onRemove: (name: string) => void) {
    this.#onRemove = onRemove;
    this.element = h(
      'div',
      { class: 'unknown-params', hidden: true, 'data-testid': 'unknown-params' },
      h('p', { class: 'unknown-head' }, 'Not parameters of this function (from the link):'),
      this.#list,
    );
  }

  /** Shows the names of `values` missing from `known`. */
  show(values: Record<string, unknown>, known: ReadonlySet<string>): void {
    const unknown = Object.keys(values).filter((name) => !known.has(name));
    this.element.hidden = unknown.length === 0;
    replaceChildren(
      this.#list,
      ...unknown.map((name) =>
        h(
          'li',
          { class: 'unknown-item', 'data-param': name },
          h('code', { class: 'unknown-name' }, name),
          h('code', { class: 'unknown-value' }, JSON.stringify(values[name]) ?? 'undefined'),
          h(
            'button',
            { class: 'button ghost small', type: 'button', 'aria-label': `Remove ${name}`, onclick: () => this.#onRemove(name) },
            'Remove',
          ),
        ),
      ),
    );
  }
}
