/**
 * @module mark-list
 * The room's marks as a list: each row its kind, its label (editable: a change is sent when
 * the field is left or Enter is pressed), what the host measured of it, who made it, and a
 * button that removes it. Rows are updated in place, so a label being typed is never rebuilt under the
 * cursor by someone else's change; the list only reports what the user does.
 */
import type { Annotation } from '../../../core/wire/scene-types.ts';
import { h } from '../../dom.ts';
import { colourOf } from '../../../core/wire/mark-colours.ts';
import { KIND_WORDS } from './mark-lines.ts';

export interface MarkListActions {
  relabel(mark: Annotation, label: string): void;
  remove(mark: Annotation): void;
}

/** A field for a mark's label (`name` its class and test id, `placeholder` also what a screen reader says), 256 characters at most. */
export function labelField(name: string, placeholder: string): HTMLInputElement {
  return h('input', { type: 'text', class: `text ${name}`, maxlength: 256, placeholder, 'aria-label': placeholder, 'data-testid': name });
}

class MarkRow {
  readonly element: HTMLElement;
  readonly #kind = h('span', { class: 'mark-kind' });
  readonly #label = labelField('mark-label', 'label');
  readonly #measure = h('span', { class: 'mark-measure', 'data-testid': 'mark-measure' });
  readonly #author = h('span', { class: 'mark-measure mark-author', 'data-testid': 'mark-author' });
  #mark: Annotation;
  /** The mark as it was when its label began to be edited: the edit is for that version. */
  #editing: Annotation | null = null;

  constructor(mark: Annotation, actions: MarkListActions) {
    this.#mark = mark;
    this.#label.addEventListener('focus', () => (this.#editing = this.#mark));
    this.#label.addEventListener('change', () => actions.relabel(this.#editing ?? this.#mark, this.#label.value.trim()));
    this.#label.addEventListener('blur', () => (this.#editing = null));
    this.#label.addEventListener('keydown', (event) => {
      if (event.key === 'Enter') this.#label.blur();
    });
    const attrs = { type: 'button', class: 'button ghost small icon', title: 'Remove this mark', 'data-testid': 'mark-remove' };
    const remove = h('button', { ...attrs, onclick: () => actions.remove(this.#mark) }, '×');
    this.element = h('li', { class: 'mark-row', 'data-testid': 'mark-row' }, this.#kind, this.#label, this.#measure, this.#author, remove);
  }

  show(mark: Annotation, measurement: string): void {
    this.#mark = mark;
    Object.assign(this.element.dataset, { id: mark.id, kind: mark.kind, version: String(mark.version) });
    this.#kind.textContent = KIND_WORDS[mark.kind];
    this.#kind.style.color = colourOf(mark);
    // A label being edited stays as typed until it is sent.
    if (document.activeElement !== this.#label) this.#label.value = mark.label ?? '';
    this.#measure.textContent = measurement;
    this.#author.textContent = mark.author ? `by ${mark.author}` : '';
    this.#measure.dataset.length = mark.length === undefined ? '' : String(mark.length);
    this.#measure.dataset.volume = mark.volume === undefined ? '' : String(mark.volume);
  }
}

export class MarkList {
  readonly element = h('ol', { class: 'mark-list', 'data-testid': 'mark-list' });
  /** Said when the room has no marks. */
  readonly note = h('p', { class: 'mark-note', 'data-testid': 'marks-empty' }, 'No marks in this room yet.');
  readonly #rows = new Map<string, MarkRow>();
  readonly #actions: MarkListActions;

  constructor(actions: MarkListActions) {
    this.#actions = actions;
    // Nothing is said of the room's marks before they are known (its stream may still be connecting).
    this.note.hidden = true;
  }

  /** Shows `marks` (in id order), each with its measurement's words; `known`: the room's marks have been read. */
  show(marks: Annotation[], measurementOf: (mark: Annotation) => string, known = true): void {
    const seen = new Set<string>();
    marks.forEach((mark, index) => {
      let row = this.#rows.get(mark.id);
      if (!row) this.#rows.set(mark.id, (row = new MarkRow(mark, this.#actions)));
      row.show(mark, measurementOf(mark));
      seen.add(mark.id);
      if (this.element.children[index] !== row.element) this.element.insertBefore(row.element, this.element.children[index] ?? null);
    });
    for (const [id, row] of this.#rows) {
      if (seen.has(id)) continue;
      row.element.remove();
      this.#rows.delete(id);
    }
    this.note.hidden = !known || marks.length > 0;
  }
}
