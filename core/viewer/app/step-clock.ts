/**
 * @module step-clock
 * The beat of playback: calls its tick `rate` times a second while the rate is above 0.
 * Each beat is timed from the one before it ran, so a slow draw delays the next step
 * rather than piling steps up.
 */
export class StepClock {
  readonly #tick: () => void;
  #rate = 0;
  #timer: ReturnType<typeof setTimeout> | null = null;

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
    this.#schedule();
  }

  stop(): void {
    if (this.#timer !== null) clearTimeout(this.#timer);
    this.#timer = null;
    this.#rate = 0;
  }

  #schedule(): void {
    if (this.#rate <= 0) return;
    this.#timer = setTimeout(() => {
      this.#timer = null;
      this.#tick();
      this.#schedule();
    }, 1000 / this.#rate);
  }
}
