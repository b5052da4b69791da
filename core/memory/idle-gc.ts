/**
 * @module idle-gc
 * Collects garbage once a thread has gone quiet after freeing large results. Result arrays
 * live outside the JavaScript heap (shared buffers), so dropping them barely moves V8's own
 * heap and no collection follows by itself: an idle worker thread or an idle host would keep
 * every freed result's memory mapped until its next collection, which may never come (a
 * 2,000-job flood left 4.7 GB resident after every job was swept). A collection shortly after
 * the thread goes quiet hands that memory back; under load it never fires, since every new
 * request pushes it back (pressure-gc.ts collects then, once enough bytes were let go).
 */
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

let collect: (() => void) | null | undefined;

/** V8's collector, exposed once for this process (null where that is not possible). */
export function collector(): (() => void) | null {
  if (collect === undefined) {
    try {
      setFlagsFromString('--expose-gc');
      collect = runInNewContext('gc') as () => void;
    } catch {
      collect = null;
    }
  }
  return collect;
}

export class IdleCollector {
  #delayMs: number;
  #timer: NodeJS.Timeout | null = null;

  constructor(delayMs: number) {
    this.#delayMs = delayMs;
  }

  /** Collects `delayMs` after the last call (each call pushes it back). */
  schedule(): void {
    if (this.#timer) clearTimeout(this.#timer);
    this.#timer = setTimeout(() => {
      this.#timer = null;
      collector()?.();
    }, this.#delayMs).unref();
  }

  cancel(): void {
    if (this.#timer) clearTimeout(this.#timer);
    this.#timer = null;
  }
}
