/**
 * @module build-error-overlay
 * Under `vitrine dev`, a plugin that fails to build shows its errors over the page (file,
 * line, column and message, as the terminal prints them) until a later build of that plugin
 * succeeds or the panel is dismissed. The host keeps serving the last good build meanwhile.
 */
import { h, replaceChildren } from './dom.ts';

/** The `build-error` event's data. */
export interface BuildErrorEvent {
  plugin: string;
  errors: { text: string }[];
}

export class BuildErrorOverlay {
  readonly element = h('div', { class: 'build-error', role: 'alert', hidden: true, 'data-testid': 'build-error' });
  #plugin: string | null = null;

  show(event: BuildErrorEvent): void {
    this.#plugin = event.plugin;
    this.element.dataset.plugin = event.plugin;
    replaceChildren(
      this.element,
      h(
        'div',
        { class: 'build-error-head' },
        h('strong', {}, `${event.plugin} does not build`),
        h('span', { class: 'muted' }, 'still showing its last good build'),
        h('button', { class: 'button ghost small', type: 'button', onclick: () => this.hide() }, 'Dismiss'),
      ),
      h('pre', { class: 'build-error-text' }, event.errors.map((e) => e.text).join('\n')),
    );
    this.element.hidden = false;
  }

  /** Hides the panel (only when it shows `plugin`, if one is given). */
  hide(plugin?: string): void {
    if (plugin !== undefined && plugin !== this.#plugin) return;
    this.#plugin = null;
    this.element.hidden = true;
  }
}
