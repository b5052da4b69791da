/**
 * @module child-watch
 * Holds busy plugin processes to their allowance of children (`--python-max-children`): while
 * any works, what runs under each is counted (process-groups.ts) and one past the allowance is
 * ended with all it started. While the number grows, every CHECK_MS; while it holds, the counts
 * take at most a twentieth of the main thread (a process running many children, each with its
 * threads, is counted less often until it starts more).
 */
import { childListsKept, processesUnder } from './process-groups.ts';
import type { PythonProcess } from './python-process.ts';

/**
 * How often the count runs while processes start more: often where the kernel lists a
 * process's children (a few small reads a process), seldom where every process of the
 * machine is read.
 */
const CHECK_MS = childListsKept ? 25 : 200;

export class ChildWatch {
  #timer: NodeJS.Timeout | undefined;
  #closed = false;
  #counted = 0;

  /** `busy`: the processes at work now; `most`: the children each may run. */
  constructor(
    private readonly busy: () => PythonProcess[],
    private readonly most: number,
  ) {}

  /** Counts while any process is busy (a call or an import just began); nothing when it already does. */
  start(): void {
    if (this.#timer === undefined && !this.#closed) this.#next(CHECK_MS);
  }

  close(): void {
    this.#closed = true;
    clearTimeout(this.#timer);
  }

  #next(ms: number): void {
    this.#timer = setTimeout(() => void this.#check(), ms).unref();
  }

  async #check(): Promise<void> {
    const busy = this.busy().filter((p) => p.pid !== undefined);
    if (busy.length === 0 || this.#closed) {
      this.#timer = undefined;
      return;
    }
    const started = performance.now();
    let grew = true;
    try {
      const under = await processesUnder(busy.map((p) => p.pid!));
      busy.forEach((proc, i) => {
        const count = under[i]!.length;
        if (count > this.most) proc.killFor(`it ran ${count} processes, past its limit of ${this.most} (--python-max-children)`);
      });
      const total = under.reduce((sum, pids) => sum + pids.length, 0);
      [grew, this.#counted] = [total > this.#counted, total];
    } finally {
      this.#next(grew ? CHECK_MS : Math.max(CHECK_MS, (performance.now() - started) * 20));
    }
  }
}
