/**
 * @module vr-time
 * The VR panel's time row, shown while the shown result has a time axis: a step back, play or
 * pause, a step forward, the step drawn ("t 12 / 300", as the page's readout counts), and a bar
 * over every step to seek with the controller's ray (pointed at and dragged as a slider). It
 * works the page's own time controls, so a step here is the page's step: the room takes it and
 * followers follow; a step from elsewhere (a peer, the page) moves the row as it moves the page's.
 */
import { Container, Text } from '@pmndrs/uikit';
import type { TimeControls } from '../time/time-controls.ts';
import { VR_THEME as T } from './vr-theme.ts';
import { buttonText, createVrSlider, panelButton, textButton, type VrWidget } from './vr-widgets.ts';

/** The page's time controls as the panel works them. */
export type VrSteps = Pick<TimeControls, 'steps' | 't' | 'playing' | 'drawnT' | 'stepBy' | 'togglePlay' | 'seek'>;

/** The controls of the time row, for automation to aim at. */
export type VrTimeControl = 'back' | 'play' | 'forward' | 'bar';

export class VrTime {
  readonly root = new Container({ flexDirection: 'column', gap: 8, width: '100%', display: 'none' });
  readonly #readout = new Text({ text: '', fontSize: T.fontSize, color: T.accent, marginLeft: 8 });
  readonly #playText = buttonText('Play');
  readonly #buttons: Record<'back' | 'play' | 'forward', Container>;
  #source: VrSteps | null = null;
  #bar: (VrWidget & { track: Container }) | null = null;
  #barSteps = 0;
  #shown = '';
  #text = '';

  constructor() {
    const act = (fn: (source: VrSteps) => void) => () => this.#source && fn(this.#source);
    const play = panelButton(this.#playText, act((source) => source.togglePlay()), { minWidth: 96 });
    // The panel's font has no arrow or play glyphs: plain characters and words stand in.
    this.#buttons = {
      back: textButton('<', act((source) => source.stepBy(-1))),
      play,
      forward: textButton('>', act((source) => source.stepBy(1))),
    };
    const row = new Container({ flexDirection: 'row', gap: 8, alignItems: 'center' });
    row.add(
      new Text({ text: 'Time', fontSize: T.fontSize, color: T.text, marginRight: 8 }),
      this.#buttons.back,
      play,
      this.#buttons.forward,
      this.#readout,
    );
    this.root.add(row);
  }

  /** What the readout says ('' while hidden). */
  get readout(): string {
    return this.#text;
  }

  /** The part of `control` to point at (the bar's track for `bar`). */
  control(control: VrTimeControl): Container | undefined {
    return control === 'bar' ? this.#bar?.track : this.#buttons[control];
  }

  /** Shows `source`'s step and whether it plays, or hides the row (null); called every frame, so only a change is laid out again. */
  update(source: VrSteps | null): void {
    this.#source = source;
    const state = source && { steps: source.steps, t: source.t, playing: source.playing, drawn: source.drawnT };
    const key = JSON.stringify(state);
    if (key === this.#shown) return;
    this.#shown = key;
    this.root.setProperties({ display: state ? 'flex' : 'none' });
    if (!state) {
      this.#text = '';
      return;
    }
    if (state.steps !== this.#barSteps) this.#rebuildBar(state.steps);
    this.#bar!.setValue(state.t);
    this.#playText.setProperties({ text: state.playing > 0 ? 'Pause' : 'Play' });
    // The step on screen, as the page's readout says it (the one wanted until the first is drawn).
    this.#text = `t ${state.drawn >= 0 ? state.drawn : state.t} / ${state.steps - 1}`;
    this.#readout.setProperties({ text: this.#text });
  }

  #rebuildBar(steps: number): void {
    if (this.#bar) this.root.remove(this.#bar.element);
    this.#barSteps = steps;
    this.#bar = createVrSlider({ type: 'integer', minimum: 0, maximum: Math.max(1, steps - 1) }, (value, mode) =>
      this.#source?.seek(Number(value), mode),
    );
    this.root.add(this.#bar.element);
  }
}
