/**
 * @module python-process
 * One warm Python process running `vitrine._runner`: frames go in on its fd 3 and come back on
 * its fd 4 (stdout and stderr stay free for the plugin's own prints, which go to the log). It
 * runs one call at a time. Cancelling sends SIGINT (the function sees KeyboardInterrupt); a
 * process that does not answer within the grace period is killed. When the process ends for any
 * reason, the call it was running fails with `PythonProcessExit` and the pool starts another.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { setPriority } from 'node:os';
import type { Readable, Writable } from 'node:stream';
import { encodeFrame, FrameReader, type Frame, type FrameHeader } from './frame-codec.ts';

export interface PythonProcessOptions {
  /** The interpreter to run. */
  python: string;
  /** Folder holding the `vitrine` package (put first on the process's PYTHONPATH). */
  modulePath: string;
  /** Address-space limit per process, bytes (0: none): a runaway allocation fails alone. */
  maxBytes: number;
  /** Where the plugin's prints and tracebacks go. */
  log: (line: string) => void;
}

/** What the process said when it started. */
export interface ProcessReady {
  pid: number;
  python: string;
  executable: string;
  numpy: string | null;
}

/** The process ended while a call ran (or before it could start). */
export class PythonProcessExit extends Error {}

type Pending = { resolve: (frame: Frame) => void; reject: (error: Error) => void; onFrame?: (frame: Frame) => void };

export class PythonProcess {
  readonly ready: Promise<ProcessReady>;
  #child: ChildProcess;
  #input: Writable;
  #pending: Pending | null = null;
  #exited: string | null = null;
  #exitListeners: ((why: string) => void)[] = [];

  constructor(options: PythonProcessOptions) {
    const env = {
      ...process.env,
      PYTHONPATH: [options.modulePath, process.env.PYTHONPATH].filter(Boolean).join(':'),
      PYTHONUNBUFFERED: '1',
      // Compiled bytecode would land in the plugin bundle folders and make them look changed.
      PYTHONDONTWRITEBYTECODE: '1',
      // N processes each starting a BLAS thread per core would oversubscribe the machine.
      OPENBLAS_NUM_THREADS: process.env.OPENBLAS_NUM_THREADS ?? '1',
      OMP_NUM_THREADS: process.env.OMP_NUM_THREADS ?? '1',
      MKL_NUM_THREADS: process.env.MKL_NUM_THREADS ?? '1',
      VITRINE_PYTHON_MAX_BYTES: String(options.maxBytes),
    };
    this.#child = spawn(options.python, ['-m', 'vitrine._runner', '3', '4'], { env, stdio: ['ignore', 'pipe', 'pipe', 'pipe', 'pipe'] });
    // Plugin work yields the CPU to the host's event loop, as the compute threads do: importing
    // a plugin's numpy at start or a long run never slows the catalog or a progress poll.
    if (this.#child.pid !== undefined) {
      try {
        setPriority(this.#child.pid, 10);
      } catch {
        // No process priorities here: the process runs at the host's.
      }
    }
    this.#input = this.#child.stdio[3] as Writable;
    const output = this.#child.stdio[4] as Readable;
    for (const stream of [this.#child.stdout, this.#child.stderr]) {
      stream?.setEncoding('utf8');
      stream?.on('data', (text: string) => {
        for (const line of text.split('\n')) if (line.trim()) options.log(line);
      });
    }
    let markReady: (ready: ProcessReady) => void = () => {};
    let failReady: (error: Error) => void = () => {};
    this.ready = new Promise<ProcessReady>((resolve, reject) => {
      markReady = resolve;
      failReady = reject;
    });
    this.ready.catch(() => {});
    const reader = new FrameReader((frame) => {
      if (frame.header.t === 'ready') markReady(frame.header as unknown as ProcessReady);
      else this.#deliver(frame);
    });
    output.on('data', (chunk: Buffer) => {
      try {
        reader.push(chunk);
      } catch (error) {
        options.log(`plugin process sent a malformed frame (${(error as Error).message}); replacing it`);
        this.kill();
      }
    });
    // Writes to a process that has just died fail with EPIPE: the exit handler reports it.
    this.#input.on('error', () => {});
    output.on('error', () => {});
    this.#child.on('error', (error) => this.#end(`could not start ${options.python}: ${error.message}`));
    this.#child.on('exit', (code, signal) => this.#end(signal ? `killed by ${signal}` : `exit code ${code}`));
    this.ready.catch(() => {});
    this.#exitListeners.push((why) => failReady(new PythonProcessExit(why)));
  }

  get pid(): number | undefined {
    return this.#child.pid;
  }

  /** Why it ended, or null while it runs. */
  get exited(): string | null {
    return this.#exited;
  }

  get busy(): boolean {
    return this.#pending !== null;
  }

  onExit(listener: (why: string) => void): void {
    if (this.#exited !== null) listener(this.#exited);
    else this.#exitListeners.push(listener);
  }

  /**
   * Sends `header` (and `blocks`) and resolves with the answer frame whose `t` is not
   * `progress`; progress frames go to `onProgress` as they come.
   */
  request(header: FrameHeader, blocks: readonly ArrayBufferView[] = [], onProgress?: (frame: Frame) => void): Promise<Frame> {
    if (this.#exited !== null) return Promise.reject(new PythonProcessExit(this.#exited));
    if (this.#pending) return Promise.reject(new Error('a plugin process runs one call at a time'));
    return new Promise<Frame>((resolve, reject) => {
      this.#pending = { resolve, reject, ...(onProgress ? { onFrame: onProgress } : {}) };
      for (const part of encodeFrame(header, blocks)) this.#input.write(part);
    });
  }

  /** Asks the running function to stop (KeyboardInterrupt in the process). */
  interrupt(): void {
    if (this.#exited === null) this.#child.kill('SIGINT');
  }

  kill(): void {
    if (this.#exited === null) this.#child.kill('SIGKILL');
  }

  /** Ends the process once it is idle: its input closes and it returns. */
  close(): void {
    this.#input.end();
  }

  #deliver(frame: Frame): void {
    const pending = this.#pending;
    if (!pending) return;
    if (frame.header.t === 'progress') {
      pending.onFrame?.(frame);
      return;
    }
    this.#pending = null;
    pending.resolve(frame);
  }

  #end(why: string): void {
    if (this.#exited !== null) return;
    this.#exited = why;
    const pending = this.#pending;
    this.#pending = null;
    pending?.reject(new PythonProcessExit(why));
    for (const listener of this.#exitListeners) listener(why);
    this.#exitListeners = [];
  }
}
