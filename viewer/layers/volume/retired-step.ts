/**
 * @module retired-step
 * The step of a stepped volume shown before the current one, kept until a frame has drawn its
 * successor, so the new step's materials take over the shader programs the old ones hold.
 */
import type { VolumeContent } from './volume-slices.ts';

/** The step before the one shown, kept until a frame has drawn the new one. */
export class RetiredStep {
  #step: VolumeContent | null = null;

  /** Frees the step kept, if any. */
  free(): void {
    this.#step?.dispose();
    this.#step = null;
  }

  /**
   * Keeps `before` until the next frame has drawn its successor: that one's materials then take
   * over the shader programs the old ones hold, where freeing first would have them compiled
   * again. A page whose frames come from a headset frees it when the next step comes instead.
   */
  keep(before: VolumeContent, successor: boolean): void {
    this.free();
    this.#step = before;
    if (successor) requestAnimationFrame(() => this.#step === before && this.free());
    else this.free();
  }
}
