/**
 * @module pressure-gc
 * Collects garbage after a thread has let go of many bytes that live outside the JavaScript
 * heap, whether or not it goes quiet. Results and their delivery variants are shared buffers,
 * and V8 does not count shared memory towards the pressure that starts a collection by
 * itself: a busy thread making one 64 MiB variant after another never collects, and every
 * variant the budget dropped stays mapped (80 windows of one 256³ volume held 5.4 GB under a
 * 1 GB budget). So each thread counts the bytes it let go (the host: results and variants
 * the budget dropped; a worker thread: results it handed over) and collects once they pass
 * a bound, soon after (never in the middle of the work that let them go), and otherwise when
 * it goes quiet. A shared buffer is returned once every thread that saw it has collected,
 * so both sides count.
 */
import { collector, IdleCollector } from './idle-gc.ts';

export class PressureCollector {
  #limitBytes: number;
  #sinceCollect = 0;
  #pending = false;
  #idle: IdleCollector;

  /** `limitBytes`: bytes let go after which a collection runs at once; `idleDelayMs`: the quiet one. */
  constructor(limitBytes: number, idleDelayMs: number) {
    this.#limitBytes = limitBytes;
    this.#idle = new IdleCollector(idleDelayMs);
  }

  /** `bytes` outside the heap may now be garbage. */
  freed(bytes: number): void {
    this.#sinceCollect += bytes;
    if (this.#sinceCollect < this.#limitBytes) {
      this.#idle.schedule();
      return;
    }
    if (this.#pending) return;
    this.#pending = true;
    // After the current turn: whatever let the bytes go (an eviction's listeners, a task's
    // answer on its way out) has finished with them by then.
    setImmediate(() => {
      this.#pending = false;
      this.#sinceCollect = 0;
      this.#idle.cancel();
      collector()?.();
    }).unref();
  }
}
