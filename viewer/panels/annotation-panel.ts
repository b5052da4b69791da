/**
 * @module annotation-panel
 * The inspector's "Annotations" section, over the marks kind's parts (layers/marks/): the
 * toolbar (mark-tools.ts), placing by clicks on the stage (mark-placer.ts), the room's marks
 * drawn in the stage (mark-drawing.ts) and listed with what the host measured
 * (mark-list.ts), kept from the room's events while the page
 * follows the room (mark-store.ts). A mark placed here is sent to the host and shown once its
 * event comes back, as it is on every other following page of the room; a page that does not
 * follow shows the list as it read it when it joined and after each of its own writes. A
 * label edited after someone else changed the mark is refused
 * by the host (412); the list is then read again and the page says so. In VR the tool is
 * chosen on the headset's panel and a controller's trigger places along its ray (`placeAlong`):
 * the page's toolbar shows the same tool, and the marks take the page's path to the host; the
 * panel lists the newest marks with who made each (`lines`).
 */
import type * as THREE from 'three';
import type { VitrineClient } from '../../core/client/client.ts';
import { VitrineHttpError } from '../../core/client/errors.ts';
import type { Annotation, AnnotationInput } from '../../core/wire/scene-types.ts';
import type { RoomEvent } from '../../core/wire/room-types.ts';
import { h } from '../dom.ts';
import { describeError } from './request-failure.ts';
import type { Stage } from '../stage/stage.ts';
import { markText, measurementOf } from '../../core/wire/mark-format.ts';
import { MarkDrawing } from '../layers/marks/mark-drawing.ts';
import { newestMarkLines, type MarkLines } from '../layers/marks/mark-lines.ts';
import { MarkList } from '../layers/marks/mark-list.ts';
import { MarkPlacer, type MarkTool, type PlaceOutcome } from '../layers/marks/mark-placer.ts';
import { MarkStore } from '../layers/marks/mark-store.ts';
import { MarkTools } from '../layers/marks/mark-tools.ts';
import { MarkUnits, type SceneResults } from '../layers/marks/mark-units.ts';
import '../layers/marks/marks.css';

export interface AnnotationPanelOptions {
  client: VitrineClient;
  stage: Stage;
  /** True when `layer` is a layer of the room's scene. */
  isLayer(layer: string): boolean;
  /** The result the page shows (null when none known): its unit is the room frame's when the room has no entry. */
  shownResult(): string | null;
}

const STALE = 'Someone changed this mark first; the list now shows theirs. Edit it again if needed.';

/** How many of the newest marks the VR panel lists. */
const VR_LINES = 5;

export class AnnotationPanel {
  readonly element: HTMLElement;
  readonly #tools = new MarkTools((tool) => this.choose(tool));
  readonly #list = new MarkList({ relabel: (mark, label) => void this.#relabel(mark, label), remove: (mark) => void this.#remove(mark) });
  readonly #drawing: MarkDrawing;
  readonly #placer: MarkPlacer;
  readonly #store: MarkStore;
  readonly #units: MarkUnits;
  readonly #unitKnown = new Set<() => void>();
  #lines: MarkLines = { total: 0, newest: [] };
  readonly #liveNote = h(
    'p',
    { class: 'mark-note', 'data-testid': 'marks-unfollowed' },
    'Follow the room to see everyone’s marks as they are made.',
  );

  constructor(options: AnnotationPanelOptions) {
    this.#drawing = new MarkDrawing(options.stage);
    this.#units = new MarkUnits(() => {
      this.#show(this.#store.list(), this.#store.known);
      for (const fn of this.#unitKnown) fn();
    }, options.shownResult);
    this.#store = new MarkStore(options.client, (marks, known) => this.#show(marks, known));
    this.#placer = new MarkPlacer({
      stage: options.stage,
      isLayer: options.isLayer,
      place: (draft) => void this.#place(draft),
      pending: (point) => this.#drawing.pending(point),
      say: (text) => this.#tools.say(text),
    });
    this.choose('none');
    this.element = h(
      'section',
      { class: 'section marks', 'data-testid': 'annotations' },
      h('div', { class: 'section-head' }, h('h3', {}, 'Annotations')),
      this.#tools.element,
      this.#list.element,
      this.#list.note,
      this.#liveNote,
    );
  }

  /** Shows the marks of `room`, the page's room; `live` while the page follows it (its events then come through {@link event}). */
  setRoom(room: string, live: boolean): void {
    if (room !== this.#store.room) {
      this.#units.reset(room);
      this.#placer.setTool(this.#placer.tool);
    }
    this.#store.setRoom(room, live);
    this.#liveNote.hidden = live;
  }

  /** The page shows a snapshot's scene, read-only: lengths read in the units of its layers, not the room's. */
  showScene(scene: SceneResults): void {
    this.#units.showScene(scene);
  }

  /** An event of the followed room's stream (its annotations and every `state` keep the marks live). */
  event(event: RoomEvent): void {
    this.#store.event(event);
  }

  /** The tool a click (or, in VR, a trigger) uses. */
  get tool(): MarkTool {
    return this.#placer.tool;
  }

  /** True while a ruler's or a box's first end waits for its second. */
  get waiting(): boolean {
    return this.#placer.waiting;
  }

  /** What the page says of a failed write ('' none): the headset says it too. */
  get problem(): string {
    return this.#tools.problem;
  }

  /** Whether the page may place marks: without, the tools go back to navigating, the placing ones disabled and titled `why`. */
  setWritable(writable: boolean, why = ''): void {
    this.#tools.setWritable(writable, why);
    if (!writable) this.choose('none');
  }

  /** Chooses `tool` (from the toolbar or the VR panel); a first end taken is forgotten. */
  choose(tool: MarkTool): void {
    if (tool !== 'none' && this.#tools.readOnly) return this.#tools.say(this.#tools.readOnly, true);
    this.#tools.select(tool);
    this.#placer.setTool(tool);
  }

  /**
   * The physical unit of frame `layer` (undefined: the room's), null while none is known: what
   * the marks measure in, and what the scale bars and pointer coordinates read in too.
   */
  unitOf(layer: string | undefined): string | null {
    return this.#units.unitOf(layer);
  }

  /** Calls `fn` each time a frame's unit became known. */
  onUnitKnown(fn: () => void): void {
    this.#unitKnown.add(fn);
  }

  /** The marks as the VR panel lists them (a new object each time they change). */
  get lines(): MarkLines {
    return this.#lines;
  }

  /** A controller's trigger with its ray (world space): places as a click would, or null with no tool chosen. */
  placeAlong(ray: THREE.Raycaster): PlaceOutcome | null {
    return this.#placer.placeAlong(ray);
  }

  #show(marks: Annotation[], known: boolean): void {
    const measurement = (mark: Annotation): string => measurementOf(mark, this.#units.unitOf(mark.layer));
    this.#list.show(marks, measurement, known);
    this.#drawing.show(marks, (mark) => markText(mark, this.#units.unitOf(mark.layer)), known);
    this.#lines = { total: marks.length, newest: newestMarkLines(marks, VR_LINES, measurement) };
  }

  async #place(draft: Pick<AnnotationInput, 'kind' | 'points' | 'layer'>): Promise<void> {
    const label = this.#tools.label;
    try {
      await this.#store.add({ ...draft, ...(label ? { label } : {}) });
    } catch (error) {
      this.#tools.say(`The mark was not saved: ${describeError(error)}`, true);
    }
  }

  async #relabel(mark: Annotation, label: string): Promise<void> {
    if (label === (mark.label ?? '')) return;
    try {
      await this.#store.relabel(mark, label);
      this.#tools.clearProblem();
    } catch (error) {
      await this.#refused(error, 'The label was not saved');
    }
  }

  async #remove(mark: Annotation): Promise<void> {
    try {
      await this.#store.remove(mark);
    } catch (error) {
      await this.#refused(error, 'The mark was not removed');
    }
  }

  /** A refused write: a stale version reads the list again; anything else is said as it is. */
  async #refused(error: unknown, what: string): Promise<void> {
    if (error instanceof VitrineHttpError && error.status === 412) {
      this.#tools.say(STALE, true);
      // The list read again shows the room's version of the mark (its field too, not what was typed).
      await this.#store.reload().catch(() => undefined);
    } else this.#tools.say(`${what}: ${describeError(error)}`, true);
  }
}
