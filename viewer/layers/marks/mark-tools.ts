/**
 * @module mark-tools
 * The annotation toolbar: which tool a click on the stage uses (navigate, point, ruler, box),
 * the label new marks get, and a status line saying what to click next or what went wrong.
 * A page that may only look at its room has every tool but Navigate disabled, titled why.
 */
import { h } from '../../dom.ts';
import { labelField } from './mark-list.ts';
import type { MarkTool } from './mark-placer.ts';

const TOOLS: { tool: MarkTool; text: string; title: string }[] = [
  { tool: 'none', text: 'Navigate', title: 'Clicks and drags move the camera' },
  { tool: 'point', text: 'Point', title: 'A click places a point' },
  { tool: 'line', text: 'Ruler', title: 'Two clicks: the ends of a ruler, measured by the host' },
  { tool: 'box', text: 'Box', title: 'Two clicks: opposite corners of a box' },
];

export class MarkTools {
  readonly element: HTMLElement;
  readonly #buttons: HTMLButtonElement[];
  readonly #label = labelField('mark-new-label', 'label for new marks');
  readonly #status = h('p', { class: 'mark-status', 'data-testid': 'mark-status', 'aria-live': 'polite' });
  /** Why the page may not place marks ('' when it may). */
  #readOnly = '';

  /** `choose` when the user picks a tool. */
  constructor(choose: (tool: MarkTool) => void) {
    this.#buttons = TOOLS.map(({ tool, text, title }) => {
      const attrs = { type: 'button', class: 'button ghost small mark-tool', title, 'data-tool': tool, 'aria-pressed': 'false' };
      return h('button', { ...attrs, onclick: () => choose(tool) }, text);
    });
    this.element = h(
      'div',
      { class: 'mark-tools' },
      h('div', { class: 'mark-tool-row', role: 'toolbar' }, ...this.#buttons),
      this.#label,
      this.#status,
    );
  }

  /** Whether the page may place marks (`why` it may not, shown as the placing tools' title). */
  setWritable(writable: boolean, why: string): void {
    this.#readOnly = writable ? '' : why;
    for (const [index, button] of this.#buttons.entries()) {
      if (button.dataset.tool === 'none') continue;
      button.disabled = !writable;
      button.title = writable ? TOOLS[index]!.title : why;
    }
    this.#label.disabled = !writable;
  }

  /** Why the page may not place marks ('' when it may). */
  get readOnly(): string {
    return this.#readOnly;
  }

  /** Shows `tool` as the chosen one. */
  select(tool: MarkTool): void {
    for (const button of this.#buttons) button.setAttribute('aria-pressed', String(button.dataset.tool === tool));
  }

  /** The label new marks get ('' none). */
  get label(): string {
    return this.#label.value.trim();
  }

  /** What was said of a failure ('' when the status says none). */
  get problem(): string {
    return this.#status.classList.contains('problem') ? (this.#status.textContent ?? '') : '';
  }

  /** Takes back what was said of a failure (a later write went through). */
  clearProblem(): void {
    if (this.#status.classList.contains('problem')) this.say('');
  }

  /** Says `text` (`problem`: in the colour of a failure). */
  say(text: string, problem = false): void {
    this.#status.textContent = text;
    this.#status.classList.toggle('problem', problem);
    this.#status.hidden = text === '';
  }
}
