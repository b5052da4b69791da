/**
 * @module thread-retirement
 * An ES module cannot be unloaded: every version of a plugin a worker thread imported stays in
 * its heap (about twice its source's size, parsed). So after `RETIRE_AFTER_RELOADS` reloads
 * that brought new code, or sooner once they brought `RETIRE_AFTER_BYTES` of bundles (a large
 * plugin in a dev loop), the compute threads are retired: idle ones at once, busy ones once their task ends (a running
 * computation finishes with the code it started with), and new threads take their place,
 * importing only the versions asked of them from then on. A thread's heap so stays bounded
 * however many times a plugin is reloaded.
 */
import type Tinypool from 'tinypool';

/** Reloads with new plugin code between two retirements of the compute threads. */
export const RETIRE_AFTER_RELOADS = 20;
/** Bytes of new bundles between two retirements: a thread that imported them all holds about twice this. */
export const RETIRE_AFTER_BYTES = 8 * 1024 * 1024;

export class ThreadRetirement {
  #pool: Pick<Tinypool, 'recycleWorkers'>;
  #every: number;
  #everyBytes: number;
  #reloads = 0;
  #bytes = 0;
  /** Times the threads were retired. */
  retired = 0;

  constructor(pool: Pick<Tinypool, 'recycleWorkers'>, every = RETIRE_AFTER_RELOADS, everyBytes = RETIRE_AFTER_BYTES) {
    this.#pool = pool;
    this.#every = Math.max(1, every);
    this.#everyBytes = Math.max(1, everyBytes);
  }

  /** Counts a reload that brought `bytes` of new code; retires the threads every `every` of them, or once the bytes add up. */
  reloaded(bytes = 0): void {
    this.#bytes += bytes;
    if (++this.#reloads < this.#every && this.#bytes < this.#everyBytes) return;
    this.#reloads = 0;
    this.#bytes = 0;
    this.retired++;
    void this.#pool.recycleWorkers().catch(() => {});
  }
}
