/**
 * @module build-error-overlay
 * Under `vitrine dev`, a plugin that fails to build shows its errors over the page (file,
 * line, column and message, as the terminal prints them) until a later build of that plugin
 * succeeds or the panel is dismissed. The host keeps serving the last good build meanwhile,
 * and its stream starts with the failures that still stand, so a page opened later shows them too.
 */
import { h, replaceChildren } from './dom.ts';

/** The `build-error` event's data. */
export interface BuildErrorEvent {
  plugin: string;
  errors: { text: string }[];
}

export class BuildErrorOverlay {
  readonly element = h('div', { class: 'build-error', role: 'alert', hidden: true, 'data-testid': 'build-error' });
  /** Every plugin that stands failed, the newest last: fixing one shows the one before it. */
  readonly #failed = new Map<string, BuildErrorEvent>();

  show(event: BuildErrorEvent): void {
    this.#failed.delete(event.plugin);
    this.#failed.set(event.plugin, event);
    this.#draw();
  }

  /** `plugin` built (or was removed): its errors go, and another's that still stand show. */
  hide(plugin: string): void {
    if (this.#failed.delete(plugin)) this.#draw();
  }

  /** Forgets every failure (the host's stream opened anew and is about to list those that stand). */
  clear(): void {
    this.#failed.clear();
    this.#draw();
  }

  #draw(): void {
    const event = [...this.#failed.values()].at(-1);
    if (!event) {
      delete this.element.dataset.plugin;
      this.element.hidden = true;
      return;
    }
    this.element.dataset.plugin = event.plugin;
    const others = this.#failed.size - 1;
    const more = others > 0 ? `; ${others} more plugin${others === 1 ? '' : 's'} failed` : '';
    replaceChildren(
      this.element,
      h(
        'div',
        { class: 'build-error-head' },
        h('strong', {}, `${event.plugin} does not build`),
        h('span', { class: 'muted' }, `still showing its last good build${more}`),
        h('button', { class: 'button ghost small', type: 'button', onclick: () => (this.element.hidden = true) }, 'Dismiss'),
      ),
      h('pre', { class: 'build-error-text' }, event.errors.map((e) => e.text).join('\n')),
    );
    this.element.hidden = false;
  }
}
