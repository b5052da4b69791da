/**
 * @module time-controls
 * The time slider of a volume with a time axis: step back, play or pause, step forward, the
 * slider over every step, the rate in steps per second, and which step is drawn (with its
 * time when the result gives a time step and unit). It only reports what the user does; the
 * stepped volume decides what is drawn and tells it back with `show`. The VR panel works the
 * same controls (a step, play or pause, a seek there is one here), so both go one way to the room.
 */
import { h, iconButton, toolRow } from '../dom.ts';

export interface TimeControlsActions {
  /** Go to step `t` (`drag` while the slider moves, `commit` when let go or stepped). */
  seek(t: number, mode: 'drag' | 'commit'): void;
  /** Play at `rate` steps per second. */
  play(rate: number): void;
  pause(): void;
}

/** Steps per second when playing starts. */
export const DEFAULT_RATE = 4;

/** Each controls' element to the controls, so the tool area's controls can be found from the page. */
const byElement = new WeakMap<Element, TimeControls>();

/** The time controls shown in `root` (the stage's tool area), null when it shows none. */
export function timeControlsIn(root: ParentNode): TimeControls | null {
  const element = root.querySelector('[data-testid=time-controls]');
  return element ? (byElement.get(element) ?? null) : null;
}

export class TimeControls {
  readonly element: HTMLElement;
  readonly #slider: HTMLInputElement;
  readonly #play: HTMLButtonElement;
  readonly #rate = h('input', {
    type: 'number',
    class: 'num step-rate',
    min: 0.5,
    max: 60,
    step: 0.5,
    value: DEFAULT_RATE,
    'aria-label': 'steps per second',
    'data-control': 'rate',
  });
  readonly #readout = h('output', { class: 'slice-value', 'data-testid': 'time-readout' });
  /** The step's time (with the result's time step and unit), and whether it is drawn coarse. */
  readonly #at: HTMLElement;
  readonly #actions: TimeControlsActions;
  readonly #time: (t: number) => string;
  /** How many steps the result has. */
  readonly steps: number;
  #t = 0;
  #playing = 0;
  #drawn = -1;

  /** For `steps` steps, `timeStep` `unit` apart when the result says so. */
  constructor(steps: number, timing: { time_step?: number; time_unit?: string }, actions: TimeControlsActions) {
    this.steps = steps;
    this.#actions = actions;
    const { time_step: dt, time_unit: unit } = timing;
    this.#time = (t) => (dt !== undefined ? `${+(t * dt).toPrecision(6)} ${unit ?? ''}`.trimEnd() : '');
    this.#slider = h('input', {
      type: 'range',
      class: 'slider',
      min: 0,
      max: steps - 1,
      step: 1,
      value: 0,
      'aria-label': 'time step',
      'data-control': 'time',
    });
    this.#slider.addEventListener('input', () => actions.seek(Number(this.#slider.value), 'drag'));
    this.#slider.addEventListener('change', () => actions.seek(Number(this.#slider.value), 'commit'));
    this.#play = iconButton('▶', 'Play', 'play', () => this.togglePlay());
    this.#rate.addEventListener('change', () => this.#playing > 0 && actions.play(this.rate()));
    this.#at = h('div', { class: 'step-time', 'data-testid': 'time-at', hidden: dt === undefined });
    this.element = h(
      'div',
      { class: 'time-controls', 'data-testid': 'time-controls' },
      h(
        'div',
        { class: 'slice-row' },
        iconButton('«', 'Step back', 'step-back', () => this.stepBy(-1)),
        this.#play,
        iconButton('»', 'Step forward', 'step-forward', () => this.stepBy(1)),
        this.#rate,
        h('span', { class: 'slice-axis' }, 'steps/s'),
      ),
      toolRow('label', 't', null, this.#slider, this.#readout),
      this.#at,
    );
    byElement.set(this.element, this);
    this.show(0, 0);
  }

  /** The step wanted. */
  get t(): number {
    return this.#t;
  }

  /** Steps per second; 0 when paused. */
  get playing(): number {
    return this.#playing;
  }

  /** The step drawn (-1 before any). */
  get drawnT(): number {
    return this.#drawn;
  }

  /** Goes `by` steps on from the step wanted, wrapping round at either end. */
  stepBy(by: number): void {
    this.#actions.seek((((this.#t + by) % this.steps) + this.steps) % this.steps, 'commit');
  }

  /** Pauses when playing; else plays at the rate asked for. */
  togglePlay(): void {
    if (this.#playing > 0) this.#actions.pause();
    else this.#actions.play(this.rate());
  }

  /** Goes to step `t` (`drag` while a slider moves, `commit` when let go). */
  seek(t: number, mode: 'drag' | 'commit'): void {
    this.#actions.seek(Math.max(0, Math.min(this.steps - 1, Math.round(t))), mode);
  }

  /** Steps per second asked for (the rate field, within its bounds). */
  rate(): number {
    const rate = Number(this.#rate.value);
    return Number.isFinite(rate) && rate > 0 ? Math.min(60, rate) : DEFAULT_RATE;
  }

  /** Shows the step wanted and whether it plays; a slider in the user's hand is not moved under it. */
  show(t: number, playing: number): void {
    this.#t = t;
    this.#playing = playing;
    if (document.activeElement !== this.#slider || playing > 0) this.#slider.value = String(t);
    this.#play.textContent = playing > 0 ? '❚❚' : '▶';
    this.#play.title = this.#play.ariaLabel = playing > 0 ? 'Pause' : 'Play';
    if (playing > 0 && document.activeElement !== this.#rate) this.#rate.value = String(playing);
    this.element.dataset.playing = String(playing);
    this.element.dataset.wantedT = String(t);
  }

  /** Step `t` is drawn (`coarse`: from a coarser level, the link did not keep up). */
  drawn(t: number, coarse: boolean): void {
    this.#drawn = t;
    this.#readout.textContent = `${t} / ${this.steps - 1}`;
    this.#at.textContent = `${this.#time(t)}${coarse ? ' (coarse)' : ''}`;
    this.#at.hidden = this.#at.textContent === '';
    this.element.dataset.shownT = String(t);
    this.element.dataset.coarse = String(coarse);
  }
}
