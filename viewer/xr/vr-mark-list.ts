/**
 * @module vr-mark-list
 * The VR panel's list of the room's marks, under its annotation tools: the newest few (the
 * panel has room for a handful; the page lists them all), newest first, each in one line (its
 * kind, label and measurement) with who made it under it, as the page's list says them
 * (mark-list.ts). Hidden while the room has none. The panel's font holds printable ASCII and
 * little else: other characters stand in as plain ones ('³' as '^3', quotes straight), or '?'.
 */
import { Container, Text } from '@pmndrs/uikit';
import type { MarkLine, MarkLines } from '../layers/marks/mark-lines.ts';
import { VR_THEME as T } from './vr-theme.ts';

/** `text` in characters the panel's font draws. */
export function panelText(text: string): string {
  return text
    .replace(/³/g, '^3')
    .replace(/[‘’]/g, "'")
    .replace(/[“”]/g, '"')
    .replace(/…/g, '...')
    .replace(/[^\x20-\x7e]/g, '?');
}

export class VrMarkList {
  readonly root = new Container({ flexDirection: 'column', gap: 4, width: '100%', display: 'none' });
  readonly #title = new Text({ text: '', fontSize: T.smallFont, color: T.muted });
  readonly #rowsBox = new Container({ flexDirection: 'column', gap: 4, width: '100%' });
  #rows: Container[] = [];
  #given: MarkLines | null = null;
  #shown: MarkLine[] = [];

  constructor() {
    this.root.add(this.#title, this.#rowsBox);
  }

  /** The lines the panel shows now, newest first, as it writes them (automation reads them). */
  get shown(): readonly MarkLine[] {
    return this.#shown;
  }

  /** Shows `lines` (called every frame: only new lines are laid out again). */
  show(lines: MarkLines): void {
    if (lines === this.#given) return;
    this.#given = lines;
    this.#shown = lines.newest.map((line) => ({ id: line.id, text: panelText(line.text), author: panelText(line.author) }));
    this.root.setProperties({ display: lines.total > 0 ? 'flex' : 'none' });
    const more = lines.total > this.#shown.length ? `, the newest ${this.#shown.length}` : '';
    this.#title.setProperties({ text: `${lines.total} ${lines.total === 1 ? 'mark' : 'marks'} in the room${more}` });
    for (const row of this.#rows) this.#rowsBox.remove(row);
    this.#rows = this.#shown.map((line) => this.#row(line));
    if (this.#rows.length > 0) this.#rowsBox.add(...this.#rows);
  }

  #row(line: MarkLine): Container {
    const row = new Container({
      flexDirection: 'column',
      width: '100%',
      paddingX: 8,
      paddingY: 4,
      backgroundColor: T.surface,
      borderRadius: T.radius,
    });
    row.add(new Text({ text: line.text, fontSize: T.smallFont, color: T.text }));
    if (line.author) row.add(new Text({ text: `by ${line.author}`, fontSize: T.smallFont, color: T.muted }));
    return row;
  }
}
