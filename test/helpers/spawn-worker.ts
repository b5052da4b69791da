/**
 * @module spawn-worker
 * The one way tests start `vitrine worker` as a process (the sibling of spawn-host.ts, whose
 * hosts print `listening on`): `node <cli> worker ...args`, resolved once it prints
 * `worker ready`. Keeps standard output and standard error for assertions, stops or kills the
 * process and resolves with its exit. Every worker still running is killed when the test file
 * ends (and if the test process exits first).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { CLI, REPO } from './cli-path.ts';
import { STATE_WAIT_MS } from './wait-for.ts';
import { atFileEnd } from './file-end.ts';

export interface RunningWorker {
  child: ChildProcess;
  stdout(): string;
  /** The worker's log lines so far. */
  stderr(): string;
  /** Resolves with the exit code (null after a signal) once the process has exited. */
  exited: Promise<number | null>;
  /** Sends `signal` (SIGTERM) and resolves with the exit code once the process has exited. */
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

const running = new Set<RunningWorker>();

/** Runs `vitrine worker` with `args` without waiting for it to be ready (for usage errors). */
export function runWorker(args: string[]): RunningWorker {
  const child = spawn(process.execPath, [CLI, 'worker', ...args], { cwd: REPO, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stdout!.setEncoding('utf8').on('data', (text: string) => void (out += text));
  child.stderr!.setEncoding('utf8').on('data', (text: string) => void (err += text));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const worker: RunningWorker = {
    child,
    stdout: () => out,
    stderr: () => err,
    exited,
    stop(signal = 'SIGTERM') {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      return exited;
    },
  };
  running.add(worker);
  void exited.then(() => running.delete(worker));
  return worker;
}

/** Starts `vitrine worker` with `args`; resolves once it prints `worker ready`. */
export async function spawnWorker(args: string[], timeoutMs = STATE_WAIT_MS): Promise<RunningWorker> {
  const worker = runWorker(args);
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`the worker printed no 'worker ready' within ${timeoutMs} ms:\n${worker.stdout()}\n${worker.stderr()}`)),
      timeoutMs,
    );
    const check = () => {
      if (!worker.stdout().includes('worker ready')) return;
      clearTimeout(timer);
      worker.child.stdout!.off('data', check);
      resolve();
    };
    worker.child.stdout!.on('data', check);
    void worker.exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`the worker exited with ${code} before it was ready:\n${worker.stdout()}\n${worker.stderr()}`));
    });
    check();
  });
  return worker;
}

/** Kills every worker still running. */
export async function killAllWorkers(): Promise<void> {
  await Promise.all([...running].map((worker) => worker.stop('SIGKILL')));
}

atFileEnd(killAllWorkers);
process.once('exit', () => {
  for (const worker of running) worker.child.kill('SIGKILL');
});
