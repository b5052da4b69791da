/**
 * @module vr-mark-tools
 * The annotation tools in VR: a row of the panel choosing what the trigger does on the
 * specimen (Off, Point, Ruler, Box), always showing the page's tool (a choice here is the
 * page's choice, and back), with a line saying what to aim at next. A trigger that the panel
 * did not take goes to `trigger`: with a tool chosen, the controller's ray picks on the stage
 * as a click on the page does and the mark takes the page's path to the host (one trigger for a
 * point; two for a ruler or a box, its ends or opposite corners); a write the host refused is
 * said there as on the page. Off leaves the trigger to
 * the hands (a pinch grabs). Under the tools, the room's newest marks with who made each
 * (VrMarkList).
 */
import { Container, Text } from '@pmndrs/uikit';
import type * as THREE from 'three';
import type { MarkLine, MarkLines } from '../layers/marks/mark-lines.ts';
import type { MarkTool } from '../layers/marks/mark-placer.ts';
import type { AnnotationPanel } from '../panels/annotation-panel.ts';
import { VR_THEME as T } from './vr-theme.ts';
import { textButton } from './vr-widgets.ts';

/** The page's annotation tools as VR works them. */
export type VrMarks = Pick<AnnotationPanel, 'tool' | 'waiting' | 'problem' | 'choose' | 'placeAlong' | 'lines'>;

const TOOLS: { tool: MarkTool; text: string }[] = [
  { tool: 'none', text: 'Off' },
  { tool: 'point', text: 'Point' },
  { tool: 'line', text: 'Ruler' },
  { tool: 'box', text: 'Box' },
];

/** `text` in characters the panel's font draws. */
function panelText(text: string): string {
  return text
    .replace(/³/g, '^3')
    .replace(/[‘’]/g, "'")
    .replace(/[“”]/g, '"')
    .replace(/…/g, '...')
    .replace(/[^\x20-\x7e]/g, '?');
}

/**
 * The VR panel's list of the room's marks, under its annotation tools: the newest few (the
 * panel has room for a handful; the page lists them all), newest first, each in one line (its
 * kind, label and measurement) with who made it under it, as the page's list says them
 * (mark-list.ts). Hidden while the room has none. The panel's font holds printable ASCII and
 * little else: other characters stand in as plain ones ('³' as '^3', quotes straight), or '?'.
 */
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

/** What to aim at next. The panel's font has no curly quotes: the words need none. */
function hint(tool: MarkTool, waiting: boolean, missed: boolean): string {
  if (tool === 'none') return '';
  if (missed) return 'Nothing there to mark: aim the ray at the specimen';
  if (tool === 'point') return 'Trigger on the specimen places a point';
  const what = tool === 'line' ? 'the ruler' : 'the box';
  return waiting ? `Trigger on the other end of ${what}` : `Trigger on the first end of ${what}`;
}

export class VrMarkTools {
  readonly root = new Container({ flexDirection: 'column', gap: 6, width: '100%' });
  readonly #marks: VrMarks;
  readonly #buttons = new Map<MarkTool, Container>();
  readonly #hint = new Text({ text: '', fontSize: T.smallFont, color: T.muted });
  /** The room's newest marks and who made them. */
  readonly list = new VrMarkList();
  /** The last trigger hit nothing (said until the next trigger or another tool). */
  #missed = false;
  #tool: MarkTool = 'none';
  #shown = '';

  constructor(marks: VrMarks) {
    this.#marks = marks;
    const row = new Container({ flexDirection: 'row', gap: 8, alignItems: 'center' });
    row.add(new Text({ text: 'Marks', fontSize: T.fontSize, color: T.text, marginRight: 8 }));
    for (const { tool, text } of TOOLS) {
      const button = textButton(text, () => {
        this.#missed = false;
        marks.choose(tool);
      });
      this.#buttons.set(tool, button);
      row.add(button);
    }
    this.root.add(row, this.#hint, this.list.root);
  }

  /** The button of `tool` (automation aims at it). */
  button(tool: MarkTool): Container | undefined {
    return this.#buttons.get(tool);
  }

  /** A trigger the panel did not take, with the controller's ray: true when a tool used it. */
  trigger(ray: THREE.Raycaster): boolean {
    const outcome = this.#marks.placeAlong(ray);
    if (outcome === null) return false;
    this.#missed = outcome === 'missed';
    return true;
  }

  /** Shows the page's tool, what to do next and the newest marks (called every frame: only a change is laid out again). */
  update(): void {
    this.list.show(this.#marks.lines);
    const { tool, waiting, problem } = this.#marks;
    if (tool !== this.#tool) this.#missed = false;
    this.#tool = tool;
    const key = `${tool}:${waiting}:${this.#missed}:${problem}`;
    if (key === this.#shown) return;
    this.#shown = key;
    for (const [each, button] of this.#buttons) button.setProperties({ backgroundColor: each === tool ? T.accentDim : T.surface });
    const text = problem ? problem.replace(/[‘’]/g, "'").replace(/…/g, '...') : hint(tool, waiting, this.#missed);
    this.#hint.setProperties({ text, color: problem ? T.error : T.muted, display: text ? 'flex' : 'none' });
  }
}
