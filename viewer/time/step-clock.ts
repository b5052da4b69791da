/**
 * @module step-clock
 * The beat of playback: calls its tick `rate` times a second while the rate is above 0.
 * Beats keep to a timeline set when playing starts, so the time a tick takes and a timer's
 * lateness do not slow the rate down; a clock more than a beat behind (a busy page) beats
 * once at once and keeps time from there, rather than piling the missed beats up.
 */
export class StepClock {
  readonly #tick: () => void;
  #rate = 0;
  #timer: ReturnType<typeof setTimeout> | null = null;
  /** When the next beat is due (Date.now() milliseconds). */
  #due = 0;

  constructor(tick: () => void) {
    this.#tick = tick;
  }

  get rate(): number {
    return this.#rate;
  }

  /** Beats per second from now on; 0 stops. */
  setRate(rate: number): void {
    if (rate === this.#rate) return;
    this.stop();
    this.#rate = rate > 0 && Number.isFinite(rate) ? rate : 0;
    this.#due = Date.now();
    this.#schedule();
  }

  stop(): void {
    if (this.#timer !== null) clearTimeout(this.#timer);
    this.#timer = null;
    this.#rate = 0;
  }

  #schedule(): void {
    if (this.#rate <= 0) return;
    const now = Date.now();
    const period = 1000 / this.#rate;
    this.#due = this.#due + period < now - period ? now : this.#due + period;
    this.#timer = setTimeout(() => {
      this.#timer = null;
      this.#tick();
      this.#schedule();
    }, this.#due - now);
  }
}
