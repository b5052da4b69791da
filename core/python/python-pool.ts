/**
 * @module python-pool
 * The host's warm Python processes: a fixed number, started with the host, each importing the
 * Python plugins once. A call takes an idle process (or waits for one, first come first
 * served); a process that ends is replaced, and only the call it ran fails. Cancelling
 * interrupts the process and kills it if it has not answered within the grace period.
 */
import { PythonProcess, PythonProcessExit, type ProcessReady } from './python-process.ts';
import type { Frame, FrameHeader } from './frame-codec.ts';

/** A Python plugin as the processes import it. */
export interface PythonPlugin {
  name: string;
  dir: string;
  entry: string;
  version: string;
}

/** A plugin whose import failed, with the module it missed when that was the cause. */
export interface ImportProblem {
  plugin: PythonPlugin;
  error: string;
  missing: string | null;
}

export interface PythonPoolOptions {
  python: string;
  modulePath: string;
  processes: number;
  /** How long an interrupted function has to stop before its process is killed. */
  cancelGraceMs: number;
  maxBytes: number;
  log: { info(line: string): void; warn(line: string): void };
  /** Called once per plugin version whose import failed. */
  onImportProblem: (problem: ImportProblem) => void;
}

/** How many processes in a row may die before saying ready before the pool stops replacing them. */
const MAX_FAILED_STARTS = 5;

export class PythonPool {
  #o: PythonPoolOptions;
  #all = new Set<PythonProcess>();
  #idle: PythonProcess[] = [];
  #waiters: { resolve: (p: PythonProcess) => void; reject: (e: Error) => void }[] = [];
  #plugins: PythonPlugin[] = [];
  #reported = new Set<string>();
  #failedStarts = 0;
  #closed = false;
  #broken: string | null = null;
  /** The first process's greeting: which interpreter and numpy the plugins run with. */
  readonly first: Promise<ProcessReady>;

  constructor(options: PythonPoolOptions) {
    this.#o = options;
    const first = this.#start();
    this.first = first.ready;
    for (let i = 1; i < options.processes; i++) this.#start();
  }

  /** The plugins the processes import (again, for those whose version changed). */
  setPlugins(plugins: PythonPlugin[]): void {
    this.#plugins = plugins;
    for (const proc of [...this.#idle]) void this.#warm(proc).then(() => this.#release(proc));
  }

  /** Runs `header` on an idle process; aborting `signal` interrupts, then kills, the process. */
  async call(
    header: FrameHeader,
    blocks: readonly ArrayBufferView[],
    signal: AbortSignal,
    onProgress: (frame: Frame) => void,
    onStart?: () => void,
  ): Promise<Frame> {
    const proc = await this.#acquire(signal);
    let grace: NodeJS.Timeout | undefined;
    const onAbort = () => {
      proc.interrupt();
      grace = setTimeout(() => proc.kill(), this.#o.cancelGraceMs);
      grace.unref();
    };
    signal.addEventListener('abort', onAbort, { once: true });
    try {
      onStart?.();
      const frame = await proc.request(header, blocks, onProgress);
      // A MemoryError leaves the interpreter in doubt: it is replaced, not reused.
      if (frame.header.recycle === true) proc.kill();
      return frame;
    } finally {
      clearTimeout(grace);
      signal.removeEventListener('abort', onAbort);
      this.#release(proc);
    }
  }

  async close(): Promise<void> {
    this.#closed = true;
    for (const waiter of this.#waiters.splice(0)) waiter.reject(new PythonProcessExit('the host is shutting down'));
    await Promise.all(
      [...this.#all].map(
        (proc) =>
          new Promise<void>((resolve) => {
            proc.onExit(() => resolve());
            proc.close();
            setTimeout(() => proc.kill(), 1000).unref();
          }),
      ),
    );
  }

  #start(): PythonProcess {
    const proc = new PythonProcess({
      python: this.#o.python,
      modulePath: this.#o.modulePath,
      maxBytes: this.#o.maxBytes,
      log: (line) => this.#o.log.info(`python[${proc.pid ?? '?'}]: ${line}`),
    });
    this.#all.add(proc);
    proc.onExit((why) => this.#exited(proc, why));
    proc.ready.then(
      () => {
        this.#failedStarts = 0;
        void this.#warm(proc).then(() => this.#release(proc));
      },
      () => {},
    );
    return proc;
  }

  async #warm(proc: PythonProcess): Promise<void> {
    const plugins = this.#plugins;
    if (plugins.length === 0 || proc.busy || proc.exited !== null) return;
    this.#idle = this.#idle.filter((p) => p !== proc);
    try {
      const answer = await proc.request({ t: 'load', plugins });
      for (const item of (answer.header.plugins as { name: string; version: string; ok: boolean; error?: string; missing?: string | null }[]) ?? []) {
        const key = `${item.name}@${item.version}`;
        if (item.ok || this.#reported.has(key)) continue;
        this.#reported.add(key);
        const plugin = plugins.find((p) => p.name === item.name);
        if (plugin) this.#o.onImportProblem({ plugin, error: item.error ?? 'import failed', missing: item.missing ?? null });
      }
    } catch {
      // The process died while importing: its exit handler replaces it.
    }
  }

  #acquire(signal: AbortSignal): Promise<PythonProcess> {
    if (this.#broken) return Promise.reject(new PythonProcessExit(this.#broken));
    const proc = this.#idle.shift();
    if (proc) return Promise.resolve(proc);
    return new Promise<PythonProcess>((resolve, reject) => {
      const waiter = {
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

  #release(proc: PythonProcess): void {
    if (proc.exited !== null || this.#closed || proc.busy) return;
    const waiter = this.#waiters.shift();
    if (waiter) waiter.resolve(proc);
    else if (!this.#idle.includes(proc)) this.#idle.push(proc);
  }

  #exited(proc: PythonProcess, why: string): void {
    this.#all.delete(proc);
    this.#idle = this.#idle.filter((p) => p !== proc);
    if (this.#closed) return;
    this.#o.log.warn(`python plugin process ${proc.pid ?? '?'} ended (${why}); starting another`);
    proc.ready.then(
      () => this.#start(),
      () => {
        if (++this.#failedStarts >= MAX_FAILED_STARTS) {
          this.#broken = `Python plugin processes keep failing to start (${why})`;
          this.#o.log.warn(this.#broken);
          for (const waiter of this.#waiters.splice(0)) waiter.reject(new PythonProcessExit(this.#broken));
        } else this.#start();
      },
    );
  }
}
