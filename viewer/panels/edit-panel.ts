/**
 * @module edit-panel
 * The inspector's "Edit labels" section: the segmentation tools (layers/labels/edit-tools.ts)
 * with the brush's radius, label, erase and only-over, the split's groups, undo and redo of
 * this page's own last edit (Ctrl-Z, Ctrl-Shift-Z), and the edited layer's list of edits with
 * who made each (an undone one struck through). A click on the stage (not a drag) picks for the
 * tool; a controller's trigger in a headset picks along its ray (`pickAlong`).
 *
 * An edit, this page's or anyone's (the room's `labels` event), is drawn by reading the layer's
 * new version and taking only its voxels within the edit's box into what the stage shows; a
 * version already drawn is passed over, so an edit seen both in its answer and its event is
 * drawn once.
 *
 * A page that may only look at its room (`setWritable`) keeps the section, its list and
 * Navigate, but every control that would write is disabled, its title saying why; Ctrl-Z and
 * a headset's choice of a tool are passed over the same way.
 */
import type * as THREE from 'three';
import type { VitrineClient } from '../../core/client/client.ts';
import type { ClientEdit, EditAnswer, LabelsEvent, ListedEdit } from '../../core/wire/edit-types.ts';
import type { RoomScene } from '../../core/wire/scene-types.ts';
import { h, replaceChildren, smallButton } from '../dom.ts';
import type { Stage } from '../stage/stage.ts';
import { EditTools, type EditTool } from '../layers/labels/edit-tools.ts';
import { VitrineHttpError } from '../../core/client/errors.ts';
import { describeError } from './request-failure.ts';

export interface EditPanelOptions {
  client: VitrineClient;
  stage: Stage;
  /** The page's room. */
  room(): string;
  /** A write was refused as this page's (401 or 403): what it may do may have changed. */
  refused?(): void;
}

/** An edit to draw: its layer, the version after it and the box it changed. */
type DrawnEdit = Pick<LabelsEvent, 'layer' | 'version' | 'box'>;

const TOOLS: { tool: EditTool; text: string; title: string }[] = [
  { tool: 'none', text: 'Navigate', title: 'Clicks and drags move the camera' },
  { tool: 'merge', text: 'Merge', title: 'Pick two segments: the second joins the first' },
  { tool: 'split', text: 'Split', title: 'Place seed groups on one segment, then apply' },
  { tool: 'brush', text: 'Brush', title: 'Paint a ball of label at the picked voxel' },
];

/** A pointer that moved farther than this between press and release dragged the camera. */
const CLICK_SLOP_PX = 5;

const numberInput = (testid: string, value: number, min: number, max: number): HTMLInputElement =>
  h('input', { type: 'number', class: 'text small', value: String(value), min, max, step: 1, 'data-testid': testid });

export class EditPanel {
  readonly element: HTMLElement;
  readonly tools: EditTools;
  readonly #options: EditPanelOptions;
  readonly #status = h('p', { class: 'mark-status', 'data-testid': 'edit-status', 'aria-live': 'polite' });
  readonly #list = h('ol', { class: 'edit-list', 'data-testid': 'edit-list' });
  readonly #buttons: HTMLButtonElement[];
  readonly #radius = numberInput('edit-radius', 3, 0, 64);
  readonly #label = numberInput('edit-label', 1, 0, 4294967295);
  readonly #erase = h('input', { type: 'checkbox', 'data-testid': 'edit-erase' });
  readonly #only = h('input', { type: 'number', class: 'text small', min: 0, step: 1, placeholder: 'any', 'data-testid': 'edit-only' });
  /** This page's own edits in effect (newest last), and those it undid (for redo). */
  #mine: { layer: string; seq: number }[] = [];
  #undone: { layer: string; seq: number }[] = [];
  /** The version drawn per layer. */
  readonly #drawn = new Map<string, number>();
  /** Per layer, the versions whose edit box was relabelled into what the stage shows. */
  readonly #relabelled = new Map<string, Set<number>>();
  /** Edits are drawn one after another, in the order they came. */
  #drawing: Promise<void> = Promise.resolve();
  #down: { x: number; y: number } | null = null;
  /** The controls that write, each with its own title; disabled while the page may only look. */
  readonly #writers: [HTMLButtonElement | HTMLInputElement, string][];
  #readOnly = '';

  constructor(options: EditPanelOptions) {
    this.#options = options;
    this.tools = new EditTools({ send: (layer, edit) => void this.#send(layer, edit), say: (text) => (this.#status.textContent = text) });
    this.#buttons = TOOLS.map(({ tool, text, title }) => {
      const button = h('button', { type: 'button', class: 'button ghost small mark-tool', title, 'data-edit-tool': tool }, text);
      button.addEventListener('click', () => this.choose(tool));
      return button;
    });
    const readBrush = (): void => {
      const brush = this.tools.brush;
      brush.radius = Math.min(64, Math.max(0, Math.round(Number(this.#radius.value) || 0)));
      brush.label = Math.max(0, Math.round(Number(this.#label.value) || 0));
      brush.erase = this.#erase.checked;
      brush.only = this.#only.value.trim() === '' ? null : Math.max(0, Math.round(Number(this.#only.value)));
    };
    for (const input of [this.#radius, this.#label, this.#erase, this.#only]) input.addEventListener('change', readBrush);
    const next = h('button', { type: 'button', class: 'button ghost small', 'data-testid': 'edit-split-next' }, 'Next group');
    next.addEventListener('click', () => this.tools.nextGroup());
    const apply = h('button', { type: 'button', class: 'button small', 'data-testid': 'edit-split-apply' }, 'Apply split');
    apply.addEventListener('click', () => this.tools.applySplit());
    const undo = smallButton('Undo', 'Ctrl-Z', 'edit-undo', () => void this.undo());
    const redo = smallButton('Redo', 'Ctrl-Shift-Z', 'edit-redo', () => void this.redo());
    const tools = this.#buttons.filter((button) => button.dataset.editTool !== 'none');
    const writers = [...tools, this.#radius, this.#label, this.#erase, this.#only, next, apply, undo, redo];
    this.#writers = writers.map((control) => [control, control.title]);
    this.element = h(
      'section',
      // Shown while the room has a labels layer to edit (showFor).
      { class: 'section edit-panel', 'data-testid': 'edit-panel', hidden: true },
      h('div', { class: 'section-head' }, h('h3', {}, 'Edit labels')),
      h('div', { class: 'mark-tool-row' }, ...this.#buttons),
      h('label', { class: 'slice-row' }, h('span', { class: 'slice-axis' }, 'radius'), this.#radius),
      h('label', { class: 'slice-row' }, h('span', { class: 'slice-axis' }, 'label'), this.#label),
      h('label', { class: 'slice-row' }, this.#erase, 'erase'),
      h('label', { class: 'slice-row' }, h('span', { class: 'slice-axis' }, 'only over'), this.#only),
      h('div', { class: 'mark-tool-row' }, next, apply, undo, redo),
      this.#status,
      this.#list,
    );
    const canvas = options.stage.canvas;
    canvas.addEventListener('pointerdown', (event) => (this.#down = { x: event.clientX, y: event.clientY }));
    canvas.addEventListener('click', (event) => {
      const down = this.#down;
      this.#down = null;
      if (this.tools.tool === 'none' || (down && Math.hypot(event.clientX - down.x, event.clientY - down.y) > CLICK_SLOP_PX)) return;
      this.tools.picked(options.stage.pickAt(event.clientX, event.clientY));
    });
    window.addEventListener('keydown', (event) => {
      if (!(event.ctrlKey || event.metaKey) || event.key.toLowerCase() !== 'z') return;
      const target = event.target as HTMLElement | null;
      if (target && (target.tagName === 'INPUT' || target.tagName === 'TEXTAREA')) return;
      event.preventDefault();
      void (event.shiftKey ? this.redo() : this.undo());
    });
    this.choose('none');
  }

  /** Shows the panel while `scene` has a labels layer; without one, the tools go back to navigating. */
  showFor(scene: Pick<RoomScene, 'layers'>): void {
    const editable = scene.layers.some((layer) => layer.kind === 'labels');
    this.element.hidden = !editable;
    if (!editable && this.tools.tool !== 'none') this.choose('none');
  }

  /**
   * Whether this page may edit its room (`why`: what the page says when it may not): without,
   * the tools go back to navigating and every control that writes is disabled, titled `why`.
   */
  setWritable(writable: boolean, why = ''): void {
    const was = this.#readOnly;
    this.#readOnly = writable ? '' : why || 'You may not change this room.';
    for (const [control, title] of this.#writers) {
      control.disabled = !writable;
      control.title = writable ? title : this.#readOnly;
    }
    this.element.dataset.readOnly = String(!writable);
    if (!writable) {
      this.choose('none');
      this.#status.textContent = this.#readOnly;
    } else if (was && this.#status.textContent === was) this.#status.textContent = '';
  }

  /** Whether this page may edit its room. */
  get writable(): boolean {
    return this.#readOnly === '';
  }

  /** The status line: what to do next, or what went wrong. */
  get status(): string {
    return this.#status.textContent ?? '';
  }

  choose(tool: EditTool): void {
    if (tool !== 'none' && !this.writable) return void (this.#status.textContent = this.#readOnly);
    this.tools.setTool(tool);
    this.#options.stage.canvas.dataset.editTool = tool;
    for (const button of this.#buttons) button.setAttribute('aria-pressed', String(button.dataset.editTool === tool));
  }

  /** A controller's trigger along `ray` (world space): what a click there would do; false without a tool. */
  pickAlong(ray: THREE.Raycaster): boolean {
    return this.tools.tool !== 'none' && this.tools.picked(this.#options.stage.pickRay(ray));
  }

  /** Undoes this page's last edit still in effect. */
  async undo(): Promise<void> {
    if (!this.writable) return void (this.#status.textContent = this.#readOnly);
    const last = this.#mine.at(-1);
    if (!last) return void (this.#status.textContent = 'Nothing of yours to undo.');
    const answer = await this.#write(last.layer, () => this.#edits(last.layer).undo(last.seq));
    if (!answer) return;
    this.#mine.pop();
    this.#undone.push(last);
  }

  /** Makes this page's last undone edit again. */
  async redo(): Promise<void> {
    if (!this.writable) return void (this.#status.textContent = this.#readOnly);
    const last = this.#undone.at(-1);
    if (!last) return void (this.#status.textContent = 'Nothing of yours to redo.');
    const answer = await this.#write(last.layer, () => this.#edits(last.layer).redo(last.seq));
    if (!answer) return;
    this.#undone.pop();
    this.#mine.push(last);
  }

  /** The versions of layer `id` drawn in place by relabelling their edit's box. */
  relabelled(id: string): ReadonlySet<number> {
    return this.#relabelled.get(id) ?? new Set();
  }

  /** A `labels` event of the room: draws the edit and lists it. */
  event(edit: DrawnEdit): void {
    this.#draw(edit);
  }

  /** The room changed (or following did): what was drawn and listed belongs to the old one. */
  reset(): void {
    this.#mine = [];
    this.#undone = [];
    this.#drawn.clear();
    this.#relabelled.clear();
    replaceChildren(this.#list);
  }

  #edits(layer: string) {
    return this.#options.client.edits(this.#options.room(), layer);
  }

  async #send(layer: string, edit: ClientEdit): Promise<void> {
    const answer = await this.#write(layer, () => this.#edits(layer).edit(edit));
    if (!answer) return;
    this.#mine.push({ layer, seq: answer.seq });
    this.#undone = [];
  }

  /** One write: its answer drawn and the list read again; a refusal said in the status line. */
  async #write(layer: string, write: () => Promise<EditAnswer>): Promise<EditAnswer | null> {
    try {
      const answer = await write();
      this.#status.textContent = `Edit ${answer.seq}: ${answer.voxels} voxels changed.`;
      this.#draw({ layer, version: answer.version, box: answer.box });
      return answer;
    } catch (error) {
      this.#status.textContent = describeError(error);
      if (error instanceof VitrineHttpError && (error.status === 401 || error.status === 403)) this.#options.refused?.();
      return null;
    }
  }

  #draw(edit: DrawnEdit): void {
    this.#drawing = this.#drawing.then(() => this.#drawNow(edit)).catch(() => {});
  }

  async #drawNow({ layer, version, box }: DrawnEdit): Promise<void> {
    const drawn = this.#drawn.get(layer) ?? 0;
    if (version > drawn && box) {
      const content = this.#options.stage.layers.get(layer)?.content;
      if (content?.relabel) {
        // Counted as drawn from the start, so the scene naming this version meanwhile does not load the whole layer again.
        const relabelled = this.#relabelled.get(layer) ?? new Set<number>();
        this.#relabelled.set(layer, relabelled.add(version));
        try {
          const next = await this.#edits(layer).labels(version);
          if ('type' in next.data && next.data.type === 'volume') content.relabel(next.data, box);
          else relabelled.delete(version);
        } catch (error) {
          relabelled.delete(version);
          throw error;
        }
        this.#options.stage.invalidate();
      }
    }
    if (version > drawn) this.#drawn.set(layer, version);
    this.#showList(await this.#edits(layer).all());
  }

  #showList(edits: ListedEdit[]): void {
    const rows = edits
      .slice()
      .reverse()
      .map((edit) => {
        const what = edit.edit.op === 'undo' || edit.edit.op === 'redo' ? `${edit.edit.op} ${edit.edit.seq}` : edit.edit.op;
        const row = h('li', { class: edit.undone_by ? 'undone' : '', 'data-seq': edit.seq }, `#${edit.seq} ${what} by ${edit.by}`);
        if (edit.undone_by) row.style.textDecoration = 'line-through';
        return row;
      });
    replaceChildren(this.#list, ...rows);
  }
}
