/**
 * @module thread-retirement
 * An ES module cannot be unloaded: every version of a plugin a worker thread imported stays in
 * its heap. So after every `RETIRE_AFTER_RELOADS` reloads that brought new code, the compute
 * threads are retired: idle ones at once, busy ones once their task ends (a running
 * computation finishes with the code it started with), and new threads take their place,
 * importing only the versions asked of them from then on. A thread's heap so stays bounded
 * however many times a plugin is reloaded.
 */
import type Tinypool from 'tinypool';

/** Reloads with new plugin code between two retirements of the compute threads. */
export const RETIRE_AFTER_RELOADS = 20;

export class ThreadRetirement {
  #pool: Pick<Tinypool, 'recycleWorkers'>;
  #every: number;
  #reloads = 0;
  /** Times the threads were retired. */
  retired = 0;

  constructor(pool: Pick<Tinypool, 'recycleWorkers'>, every = RETIRE_AFTER_RELOADS) {
    this.#pool = pool;
    this.#every = Math.max(1, every);
  }

  /** Counts a reload that brought new code; retires the threads every `every` of them. */
  reloaded(): void {
    if (++this.#reloads % this.#every !== 0) return;
    this.retired++;
    void this.#pool.recycleWorkers().catch(() => {});
  }
}
