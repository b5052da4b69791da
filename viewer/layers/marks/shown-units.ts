/**
 * @module shown-units
 * The units the scale bars and the pointer's coordinates read in: the marks' units
 * (mark-units.ts), asked at most once per frame and showing. The marks' units ask the host
 * again each time a frame's unit is wanted and not known (a result may gain one); the bar
 * wants it on every drawn frame and the readout on every pointer move, which would ask the host
 * without end about a result that states none. Here an answer, even none, is kept until what
 * the stage shows changes (another room, another layer, new content in one) or a unit becomes
 * known.
 */

export class ShownUnits {
  readonly #ask: (layer: string | undefined) => string | null;
  readonly #showing: () => string;
  /** Frame (a layer id, or '' for the room's) → the answer kept for the showing `#shown`. */
  readonly #kept = new Map<string, string | null>();
  #shown = '';

  /**
   * `ask` is the marks' lookup (undefined: the room's frame); `showing` names what the stage
   * shows (its room, layers and contents): when it changes, every answer is asked again.
   */
  constructor(ask: (layer: string | undefined) => string | null, showing: () => string) {
    this.#ask = ask;
    this.#showing = showing;
  }

  /** The unit of frame `layer` (undefined: the room's), null when none is known. */
  unitOf(layer: string | undefined): string | null {
    const showing = this.#showing();
    if (showing !== this.#shown) this.forget(showing);
    const key = layer ?? '';
    if (this.#kept.has(key)) return this.#kept.get(key)!;
    const unit = this.#ask(layer);
    this.#kept.set(key, unit);
    return unit;
  }

  /** Asks every frame again (a unit became known); `showing` names what the stage shows now. */
  forget(showing = this.#shown): void {
    this.#kept.clear();
    this.#shown = showing;
  }
}
