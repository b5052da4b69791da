/**
 * @module layer-retries
 * When a layer whose source failed for a while (a remote that did not answer) is tried again by
 * itself: first after a few seconds, then after twice as long each time up to five minutes, until
 * it shows (then the next failure starts over from the first wait).
 */
import { isHostError } from '../../errors.ts';

/** Failures that pass with time: the layer is tried again later. */
const PASSING_FAILURES: readonly string[] = ['SPC_ERR_REMOTE_UNAVAILABLE'];
const FIRST_MS = 5_000;
const MOST_MS = 300_000;
/** Layers whose next wait is remembered, at most (the oldest go first). */
const MAX_KEPT = 10_000;

/** Whether `error` is a failure that may pass by itself. */
export function passesWithTime(error: unknown): boolean {
  return isHostError(error) && PASSING_FAILURES.includes(error.code);
}

export class LayerRetries {
  /** The next wait of each layer that failed, by key. */
  readonly #waits = new Map<string, number>();

  /** Runs `retry` once `key`'s next wait has passed (it checks whether it is still needed). */
  later(key: string, retry: () => Promise<void>): void {
    const wait = this.#waits.get(key) ?? FIRST_MS;
    this.#waits.delete(key);
    this.#waits.set(key, Math.min(MOST_MS, wait * 2));
    if (this.#waits.size > MAX_KEPT) this.#waits.delete(this.#waits.keys().next().value!);
    // A host closing its stores meanwhile: nothing to try again.
    setTimeout(() => void retry().catch(() => {}), wait).unref();
  }

  /** `key` showed: its next failure waits the first wait again. */
  forget(key: string): void {
    this.#waits.delete(key);
  }
}
