/**
 * @module python-pool
 * The host's warm Python processes: `processes` for any call and `spare` more kept for short
 * work (calls the room scheduler put in its short lane), so a short call gets a process even
 * while long ones hold all the others. A call takes an idle process (or waits for one, first
 * come first served). Processes are usable as soon as they start (a call imports its own
 * plugin if it must); the plugins are imported in the background one process at a time
 * (`warmed` says when the first has them all), so a plugin slow to import holds one process,
 * not every call.
 *
 * Faults stay with their process: one that ends is replaced and only its call fails; one that
 * forks more than `maxChildren` processes, or leaves children behind a cancelled call, is
 * ended with its whole group (child-watch.ts). When processes cannot be started at all the
 * pool is *degraded* (`degraded` says why, calls fail at once with PythonUnavailable while no
 * process runs or starts) and keeps trying, less and less often, until one starts.
 */
import { ChildWatch } from './child-watch.ts';
import { processesUnder } from './process-groups.ts';
import { PythonProcess, PythonProcessExit, type ProcessReady, type PythonProcessOptions } from './python-process.ts';
import type { Frame, FrameHeader } from './frame-codec.ts';
import { PythonWarmer, type ImportProblem, type PythonPlugin } from './python-warmer.ts';

export interface PythonPoolOptions extends Pick<PythonProcessOptions, 'python' | 'modulePath' | 'maxBytes' | 'maxChildren'> {
  /** Processes any call may use. */
  processes: number;
  /** Processes kept for short calls, beside them. @defaultValue 0 */
  spare?: number;
  /** How long an interrupted function has to stop before its process is killed. */
  cancelGraceMs: number;
  log: { info(line: string): void; warn(line: string): void };
}

/** No plugin process runs, and none could be started: the call is refused at once. */
export class PythonUnavailable extends Error {}

/** Waits between attempts to start processes that keep failing: doubling from the first to the last. */
const RESTART_FIRST_MS = 500;
const RESTART_MAX_MS = 30_000;

interface Waiter {
  short: boolean;
  resolve: (p: PythonProcess) => void;
  reject: (e: Error) => void;
}

export class PythonPool {
  #o: PythonPoolOptions;
  #all = new Set<PythonProcess>();
  #ready = new Set<PythonProcess>();
  #idle: PythonProcess[] = [];
  /** Processes held by calls that are not short: at most `processes`. */
  #general = new Set<PythonProcess>();
  #waiters: Waiter[] = [];
  #warmer: PythonWarmer;
  #failedStarts = 0;
  #degraded: string | null = null;
  #closed = false;
  #children: ChildWatch;
  /** The first process's greeting: which interpreter and numpy the plugins run with. */
  readonly first: Promise<ProcessReady>;

  constructor(options: PythonPoolOptions) {
    this.#o = options;
    this.#children = new ChildWatch(() => [...this.#all].filter((p) => p.busy), options.maxChildren);
    this.#warmer = new PythonWarmer((proc) => this.#release(proc));
    const total = options.processes + (options.spare ?? 0);
    const first = this.#start();
    this.first = first.ready;
    for (let i = 1; i < total; i++) this.#start();
  }

  /** Why processes cannot be started (the pool keeps trying), or null. */
  get degraded(): string | null {
    return this.#degraded;
  }

  /** True once one process has imported the current plugins (their import problems are known). */
  get warmed(): boolean {
    return this.#warmer.warmed;
  }

  /** The plugins the processes import (again, for those whose version changed). */
  setPlugins(plugins: PythonPlugin[]): void {
    this.#warmer.setPlugins(plugins);
    this.#warmNext();
  }

  /** Resolves once a process has tried to import each of `plugins`, with those that failed. */
  importProblems(plugins: PythonPlugin[]): Promise<ImportProblem[]> {
    return this.#warmer.problems(plugins);
  }

  /**
   * Runs `header` on an idle process; aborting `signal` interrupts, then kills, the process.
   * `short`: the call holds the scheduler's short lane, and may take a spare process.
   */
  async call(
    header: FrameHeader,
    blocks: readonly ArrayBufferView[],
    signal: AbortSignal,
    onProgress: (frame: Frame) => void,
    onStart?: () => void,
    short = false,
  ): Promise<Frame> {
    const proc = await this.#acquire(signal, short);
    let grace: NodeJS.Timeout | undefined;
    const onAbort = () => {
      proc.interrupt();
      grace = setTimeout(() => proc.kill(), this.#o.cancelGraceMs).unref();
      // What the function forked goes at once (its process with it), not after it answers.
      void this.#endIfChildren(proc);
    };
    signal.addEventListener('abort', onAbort, { once: true });
    this.#children.start();
    try {
      onStart?.();
      const frame = await proc.request(header, blocks, onProgress);
      // A MemoryError leaves the interpreter in doubt: it is replaced, not reused.
      if (frame.header.recycle === true) proc.kill();
      // What a cancelled call forked is ended with it: the process is replaced if any is left.
      else if (signal.aborted) await this.#endIfChildren(proc);
      return frame;
    } finally {
      clearTimeout(grace);
      signal.removeEventListener('abort', onAbort);
      this.#general.delete(proc);
      this.#release(proc);
    }
  }

  async close(): Promise<void> {
    this.#closed = true;
    this.#children.close();
    for (const waiter of this.#waiters.splice(0)) waiter.reject(new PythonProcessExit('the host is shutting down'));
    const idle = new Set(this.#idle);
    await Promise.all(
      [...this.#all].map(
        (proc) =>
          new Promise<void>((resolve) => {
            proc.onExit(() => resolve());
            if (idle.has(proc)) {
              // An idle process ends cleanly when its input closes (a plugin's own exit handlers run).
              proc.close();
              setTimeout(() => proc.kill(), 1000).unref();
            } else {
              // Still starting, importing plugins or running a call: nothing it would finish is
              // wanted any more, and waiting for it held a host stopped soon after its start
              // for a second or two.
              proc.kill();
            }
          }),
      ),
    );
  }

  #start(): PythonProcess {
    const { python, modulePath, maxBytes, maxChildren } = this.#o;
    const proc = new PythonProcess({ python, modulePath, maxBytes, maxChildren, log: (line) => this.#o.log.info(`python[${proc.pid ?? '?'}]: ${line}`) });
    this.#all.add(proc);
    proc.onExit((why) => this.#exited(proc, why));
    proc.ready.then(
      () => {
        this.#ready.add(proc);
        if (this.#degraded !== null) this.#o.log.info('python plugin processes start again');
        this.#failedStarts = 0;
        this.#degraded = null;
        this.#release(proc);
      },
      () => {},
    );
    return proc;
  }

  /** Starts a background import on an idle process that lacks the current plugins, one at a time. */
  #warmNext(): void {
    if (this.#closed || this.#warmer.busy) return;
    const proc = this.#idle.find((p) => this.#warmer.needs(p));
    // Not the last idle process while calls wait: they come first.
    if (!proc || this.#waiters.length > 0) return;
    this.#idle = this.#idle.filter((p) => p !== proc);
    this.#children.start();
    this.#warmer.warm(proc);
  }

  #mayTake(short: boolean): boolean {
    return short || this.#general.size < this.#o.processes;
  }

  #acquire(signal: AbortSignal, short: boolean): Promise<PythonProcess> {
    // Degraded with no process left (none running, none starting): nothing would ever answer.
    if (this.#degraded !== null && this.#all.size === 0) return Promise.reject(new PythonUnavailable(this.#degraded));
    if (this.#mayTake(short) && this.#idle.length > 0) return Promise.resolve(this.#hand(this.#idle.shift()!, short));
    return new Promise<PythonProcess>((resolve, reject) => {
      const waiter: Waiter = {
        short,
        resolve: (p: PythonProcess) => {
          signal.removeEventListener('abort', onAbort);
          resolve(p);
        },
        reject,
      };
      const onAbort = () => {
        this.#waiters = this.#waiters.filter((w) => w !== waiter);
        reject(signal.reason instanceof Error ? signal.reason : new Error('cancelled'));
      };
      signal.addEventListener('abort', onAbort, { once: true });
      this.#waiters.push(waiter);
    });
  }

  #hand(proc: PythonProcess, short: boolean): PythonProcess {
    if (!short) this.#general.add(proc);
    return proc;
  }

  #release(proc: PythonProcess): void {
    if (proc.ending || this.#closed || proc.busy || !this.#ready.has(proc)) return;
    const at = this.#waiters.findIndex((w) => this.#mayTake(w.short));
    if (at >= 0) {
      const [waiter] = this.#waiters.splice(at, 1);
      waiter!.resolve(this.#hand(proc, waiter!.short));
      return;
    }
    if (!this.#idle.includes(proc)) this.#idle.push(proc);
    this.#warmNext();
  }

  /** Ends `proc` (replaced) when processes it forked are still running. */
  async #endIfChildren(proc: PythonProcess): Promise<void> {
    const pid = proc.pid;
    if (pid === undefined) return;
    const [under] = await processesUnder([pid]);
    if (under!.length > 0) proc.kill();
  }

  #exited(proc: PythonProcess, why: string): void {
    const wasReady = this.#ready.delete(proc);
    this.#all.delete(proc);
    this.#general.delete(proc);
    this.#idle = this.#idle.filter((p) => p !== proc);
    this.#warmer.forget(proc);
    if (this.#closed) return;
    if (wasReady) {
      this.#o.log.warn(`python plugin process ${proc.pid ?? '?'} ended (${why}); starting another`);
      this.#start();
      return;
    }
    // It never said ready: starting processes fails. Try again later, and say so.
    const delay = Math.min(RESTART_MAX_MS, RESTART_FIRST_MS * 2 ** this.#failedStarts++);
    this.#degraded = `plugin processes cannot be started (${why}); trying again`;
    this.#o.log.warn(`Python is degraded: a plugin process could not start (${why}); trying again in ${(delay / 1000).toFixed(1)} s`);
    if (this.#all.size === 0) for (const waiter of this.#waiters.splice(0)) waiter.reject(new PythonUnavailable(this.#degraded));
    setTimeout(() => {
      if (!this.#closed) this.#start();
    }, delay).unref();
  }
}
