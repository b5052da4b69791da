/**
 * @module stage-overlay
 * What is said over the canvas: the empty state, a loading pill (the previous picture stays
 * visible, dimmed), an error card with the host's message, or why nothing can be drawn.
 * The canvas is never left blank without an explanation.
 */
import { h, replaceChildren } from '../dom.ts';

export type OverlayKind = 'none' | 'empty' | 'loading' | 'error' | 'notice';

export class StageOverlay {
  readonly element = h('div', { class: 'stage-overlay', 'data-testid': 'stage-message', 'data-kind': 'none', 'aria-live': 'polite' });

  /** Nothing to say: the picture speaks. */
  clear(): void {
    this.#set('none');
  }

  loading(text: string): void {
    this.#set(
      'loading',
      h('div', { class: 'pill' }, h('span', { class: 'spinner', 'aria-hidden': 'true' }), h('span', { class: 'pill-text' }, text)),
    );
  }

  /** Updates the loading pill's text (e.g. the latest progress message). */
  loadingText(text: string): void {
    const pill = this.element.querySelector('.pill-text');
    if (pill) pill.textContent = text;
  }

  error(title: string, detail: string, action?: HTMLElement): void {
    this.#set(
      'error',
      h(
        'div',
        { class: 'card error', role: 'alert' },
        h('div', { class: 'card-icon' }, '!'),
        h('h3', {}, title),
        h('p', { class: 'detail' }, detail),
        action ?? null,
      ),
    );
  }

  notice(title: string, detail: string, action?: HTMLElement): void {
    this.#set('notice', h('div', { class: 'card' }, h('h3', {}, title), h('p', {}, detail), action ?? null));
  }

  /** Data that cannot be drawn (a file of another kind): says so, with a download link. */
  noPreview(what: string, href: string): void {
    const link = h('a', { class: 'button', href, download: '' }, 'Download the file');
    this.notice('No preview for this file', `${what} cannot be drawn here.`, link);
  }

  /** Nothing chosen yet: how to start (or, with `webglProblem`, why nothing can be drawn). */
  idle(webglProblem: string | null): void {
    if (webglProblem) return this.noWebGL(webglProblem);
    const text = 'Pick one from the catalog. Dynamic specimens get a parameter panel; every change is a new request.';
    const card = h('div', { class: 'card' }, h('div', { class: 'card-icon' }, '◇'), h('h3', {}, 'Choose a specimen'), h('p', {}, text));
    this.#set('empty', card);
  }

  /** The browser gives the page no WebGL context. */
  noWebGL(problem: string | null): void {
    this.notice(
      'WebGL is not available',
      `This browser gives the page no WebGL context (${problem}), so specimens cannot be drawn. ` +
        'Parameters, progress and counts still work.',
    );
  }

  #set(kind: OverlayKind, content?: HTMLElement): void {
    this.element.dataset.kind = kind;
    replaceChildren(this.element, content ?? null);
  }
}
