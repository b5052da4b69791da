/**
 * @module step-player
 * Which time step a stepped volume wants and when it moves on. Going to a step fetches it
 * and the steps around it, ahead and behind (a few each way, wrapping round as playback
 * does; playing, a second of playback ahead, as far as the cache holds, so the link stays
 * busy while a step is drawn and one slow answer does not stall the next), and draws it the
 * moment its pieces are in. Playing, each beat moves to the next step once the step before
 * is drawn; a step not in by its beat is fetched at the coarse level as well, and whichever
 * level comes first is drawn, so a link that cannot keep up plays coarse rather than stalls.
 * Pure of the DOM and of three.js: the owner draws.
 */
import type { StepCache, StepChannel } from './step-cache.ts';
import { StepClock } from './step-clock.ts';

/** Steps fetched ahead and behind the one wanted. */
export const STEPS_AROUND = 2;

/** Seconds of playback fetched ahead while playing. */
export const AHEAD_SECONDS = 1;

export interface StepPlayerOptions {
  /** Time steps of the result. */
  steps: number;
  cache: StepCache;
  /** The pieces (channels, a vector mode) a step is drawn from now. */
  wanted(): StepChannel[];
  /** Draws step `t` if its pieces are in; true when it is drawn. */
  draw(t: number): boolean;
  /** The step wanted or the rate changed (for the controls). */
  changed(t: number, rate: number): void;
}

export class StepPlayer {
  readonly #options: StepPlayerOptions;
  readonly #clock = new StepClock(() => this.#beat());
  #t = 0;
  #drawn = -1;

  constructor(options: StepPlayerOptions) {
    this.#options = options;
  }

  /** The step wanted. */
  get t(): number {
    return this.#t;
  }

  /** The step last drawn (-1 before any). */
  get drawn(): number {
    return this.#drawn;
  }

  /** Steps per second; 0 when paused. */
  get rate(): number {
    return this.#clock.rate;
  }

  /** Wants step `t` (clamped to the steps there are): fetches it and its neighbours, and draws it if it is in. */
  go(t: number): void {
    this.#t = Math.max(0, Math.min(this.#options.steps - 1, Math.round(t)));
    this.#fetch();
    this.redraw();
    this.#options.changed(this.#t, this.rate);
  }

  /** Draws the step wanted if it is in now (a piece came in, or the look changed). */
  redraw(): void {
    if (this.#options.draw(this.#t)) this.#drawn = this.#t;
  }

  /** Plays at `rate` steps per second (0: pauses). */
  setRate(rate: number): void {
    const before = this.rate;
    this.#clock.setRate(rate);
    if (this.rate > before) this.#fetch();
    this.#options.changed(this.#t, this.rate);
  }

  /** Pauses on the step on screen (the one wanted may not be in yet). */
  pause(): void {
    this.#clock.stop();
    this.go(this.#drawn >= 0 ? this.#drawn : this.#t);
  }

  stop(): void {
    this.#clock.stop();
  }

  /** Fetches the step wanted and the steps around it. */
  #fetch(): void {
    const { steps, cache } = this.#options;
    const wanted = this.#options.wanted();
    const ahead =
      this.rate > 0 ? Math.max(STEPS_AROUND, Math.min(Math.ceil(this.rate * AHEAD_SECONDS), cache.fits(wanted.length))) : STEPS_AROUND;
    const order = [this.#t];
    for (let k = 1; k <= Math.min(steps - 1, Math.max(ahead, STEPS_AROUND)); k++) {
      if (k <= ahead) order.push((this.#t + k) % steps);
      if (k <= STEPS_AROUND) order.push((this.#t - k + steps) % steps);
    }
    const loads = order.flatMap((t) => wanted.map((c) => [t, c] as const));
    // Fetched nearest first; then touched farthest first, so the cache drops far steps before near ones.
    for (const [t, c] of loads) cache.load(t, c, 'full');
    for (const [t, c] of loads.reverse()) cache.load(t, c, 'full');
  }

  #beat(): void {
    // The step before is not drawn yet: wait for it (its coarse level is on its way).
    if (this.#drawn !== this.#t) return;
    this.go((this.#t + 1) % this.#options.steps);
    if (this.#drawn !== this.#t) for (const c of this.#options.wanted()) this.#options.cache.load(this.#t, c, 'coarse');
  }
}
