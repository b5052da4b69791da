/**
 * @module python-process
 * One warm Python process running `vitrine._runner`: frames go in on its fd 3 and come back on
 * its fd 4 (stdout and stderr stay free for the plugin's own prints, which go to the log, within
 * a cap: a plugin that prints in a loop must not fill the disk or slow the host with log lines;
 * each call, and the process's start, may log MAX_BYTES_PER_CALL bytes, each line cut at
 * MAX_LINE_CHARS characters, and one line says how much of the rest was dropped). It runs one
 * call at a time. Cancelling sends SIGINT (the function
 * sees KeyboardInterrupt); a process that does not answer within the grace period is killed.
 * When the process ends for any reason, the call it was running fails with `PythonProcessExit`
 * and the pool starts another.
 *
 * Each process leads a session (and process group) of its own and is the subreaper of what it
 * starts, so whatever a plugin forks stays under it (process-groups.ts) and `kill()` ends all of
 * it: nothing a plugin started outlives its process. The
 * process is not trusted with the host's memory either: a frame declaring more than `maxBytes`
 * (what the process itself may hold) is refused before anything is allocated, and the process
 * is killed. A process that cannot even be started fails like one that exited at once.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { setPriority, totalmem } from 'node:os';
import type { Readable, Writable } from 'node:stream';
import { encodeFrame, FrameReader, type Frame, type FrameHeader } from './frame-codec.ts';
import { killTree } from './process-groups.ts';

export interface PythonProcessOptions {
  /** The interpreter to run. */
  python: string;
  /** Folder holding the `vitrine` package (put first on the process's PYTHONPATH). */
  modulePath: string;
  /** Address-space limit per process, bytes (0: none): a runaway allocation fails alone; also the most one frame may declare. */
  maxBytes: number;
  /** Processes the plugin process may start (its RLIMIT_NPROC headroom; the pool counts the group too). */
  maxChildren: number;
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

/** Bytes of output one call may put in the log. */
const MAX_BYTES_PER_CALL = 64 * 1024;
/** Longest line logged; longer ones are cut. */
const MAX_LINE_CHARS = 2000;

/** A process's prints on their way to the log, within the cap of each call. */
class PluginOutput {
  #log: (line: string) => void;
  #logged = 0;
  #dropped = 0;

  constructor(log: (line: string) => void) {
    this.#log = log;
  }

  /** A chunk of text as the process printed it. */
  write(text: string): void {
    if (this.#logged >= MAX_BYTES_PER_CALL) {
      this.#dropped += text.length;
      return;
    }
    for (const raw of text.split('\n')) {
      if (!raw.trim()) continue;
      const line = raw.length > MAX_LINE_CHARS ? `${raw.slice(0, MAX_LINE_CHARS)}… (${raw.length - MAX_LINE_CHARS} more characters)` : raw;
      if (this.#logged >= MAX_BYTES_PER_CALL) {
        this.#dropped += raw.length + 1;
        continue;
      }
      this.#logged += line.length + 1;
      this.#log(line);
      if (this.#logged >= MAX_BYTES_PER_CALL) this.#log(`(the plugin printed ${MAX_BYTES_PER_CALL} bytes in this call: the rest of its output is dropped)`);
    }
  }

  /** A new call starts: what the last one dropped is said, and the cap starts again. */
  startCall(): void {
    this.flush();
    this.#logged = 0;
  }

  /** Says how much was dropped since the last time, if anything was. */
  flush(): void {
    if (this.#dropped === 0) return;
    this.#log(`(${this.#dropped} more characters of plugin output dropped: at most ${MAX_BYTES_PER_CALL} bytes are logged per call)`);
    this.#dropped = 0;
  }
}

type Pending = { resolve: (frame: Frame) => void; reject: (error: Error) => void; onFrame?: (frame: Frame) => void };

/** Starts the runner; null and the reason when it cannot be started at all (ENOMEM, EAGAIN ...). */
function startRunner(options: PythonProcessOptions): { child: ChildProcess | null; error: string | null } {
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
    VITRINE_PYTHON_MAX_CHILDREN: String(options.maxChildren),
  };
  try {
    // detached: a session of its own, so its group holds everything the plugin forks.
    const child = spawn(options.python, ['-m', 'vitrine._runner', '3', '4'], { env, detached: true, stdio: ['ignore', 'pipe', 'pipe', 'pipe', 'pipe'] });
    return { child, error: null };
  } catch (error) {
    return { child: null, error: `could not start ${options.python}: ${(error as Error).message}` };
  }
}

export class PythonProcess {
  readonly ready: Promise<ProcessReady>;
  #child: ChildProcess | null;
  #input: Writable | null = null;
  #pending: Pending | null = null;
  #exited: string | null = null;
  /** Why the host is ending the process, said instead of the signal that ends it. */
  #fault: string | null = null;
  #output: PluginOutput;
  #exitListeners: ((why: string) => void)[] = [];
  #killed = false;

  constructor(options: PythonProcessOptions) {
    let markReady: (ready: ProcessReady) => void = () => {};
    let failReady: (error: Error) => void = () => {};
    this.ready = new Promise<ProcessReady>((resolve, reject) => {
      markReady = resolve;
      failReady = reject;
    });
    this.ready.catch(() => {});
    this.#exitListeners.push((why) => failReady(new PythonProcessExit(why)));
    this.#output = new PluginOutput(options.log);
    const { child, error } = startRunner(options);
    this.#child = child;
    if (!child) {
      // Said once the caller has had a chance to listen, as a process that exited at once would.
      setImmediate(() => this.#end(error!));
      return;
    }
    // Plugin work yields the CPU to the host's event loop, as the compute threads do: importing
    // a plugin's numpy at start or a long run never slows the catalog or a progress poll.
    if (child.pid !== undefined) {
      try {
        setPriority(child.pid, 10);
      } catch {
        // No process priorities here: the process runs at the host's.
      }
    }
    this.#input = child.stdio[3] as Writable;
    const output = child.stdio[4] as Readable;
    for (const stream of [child.stdout, child.stderr]) {
      stream?.setEncoding('utf8');
      stream?.on('data', (text: string) => this.#output.write(text));
    }
    const reader = new FrameReader((frame) => {
      if (frame.header.t === 'ready') markReady(frame.header as unknown as ProcessReady);
      else this.#deliver(frame);
      // No process can send more than it may hold; with no limit set, more than the machine has.
    }, options.maxBytes > 0 ? options.maxBytes : totalmem());
    output.on('data', (chunk: Buffer) => {
      if (this.#fault !== null) return;
      try {
        reader.push(chunk);
      } catch (error) {
        this.killFor(`it sent ${(error as Error).message}`);
      }
    });
    // Writes to a process that has just died fail with EPIPE: the exit handler reports it.
    this.#input.on('error', () => {});
    output.on('error', () => {});
    child.on('error', (failure) => this.#end(`could not start ${options.python}: ${failure.message}`));
    child.on('exit', (code, signal) => this.#end(signal ? `killed by ${signal}` : `exit code ${code}`));
  }

  get pid(): number | undefined {
    return this.#child?.pid;
  }

  /** Why it ended, or null while it runs. */
  get exited(): string | null {
    return this.#exited;
  }

  /** True once it ended or was told to end (it takes no more work). */
  get ending(): boolean {
    return this.#killed || this.#exited !== null;
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
    if (this.#exited !== null || !this.#input) return Promise.reject(new PythonProcessExit(this.#exited ?? 'not started'));
    if (this.#pending) return Promise.reject(new Error('a plugin process runs one call at a time'));
    this.#output.startCall();
    const input = this.#input;
    return new Promise<Frame>((resolve, reject) => {
      this.#pending = { resolve, reject, ...(onProgress ? { onFrame: onProgress } : {}) };
      for (const part of encodeFrame(header, blocks)) input.write(part);
    });
  }

  /** Asks the running function to stop (KeyboardInterrupt in the process). */
  interrupt(): void {
    if (this.#exited === null) this.#child?.kill('SIGINT');
  }

  /** Ends the process and everything under it (whatever the plugin forked, in its group or gone off on a session of its own). */
  kill(): void {
    const pid = this.#child?.pid;
    if (pid === undefined || this.#killed) return;
    this.#killed = true;
    void killTree(pid).catch(() => {
      // No /proc to read: the group, or the process alone if it still runs.
      if (this.#exited === null) this.#child?.kill('SIGKILL');
    });
  }

  /** Kills the process (and its group), saying `why` to the call it ran instead of the signal. */
  killFor(why: string): void {
    if (this.#exited !== null) return;
    this.#fault ??= `ended by the host: ${why}`;
    this.kill();
  }

  /** Ends the process once it is idle: its input closes and it returns. */
  close(): void {
    this.#input?.end();
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
    const said = this.#fault ?? why;
    this.#exited = said;
    this.#output.flush();
    const pending = this.#pending;
    this.#pending = null;
    pending?.reject(new PythonProcessExit(said));
    for (const listener of this.#exitListeners) listener(said);
    this.#exitListeners = [];
    // Whatever the plugin forked goes with it, however the process ended.
    this.kill();
  }
}
