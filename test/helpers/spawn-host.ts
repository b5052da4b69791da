/**
 * @module spawn-host
 * The one way tests start a host process: `node [nodeArgs] <cli> serve|dev ...args` (the
 * repository's CLI by default), resolved once it prints its `listening on` line. Keeps standard output and
 * standard error for assertions, can wait for a log line, and stops or kills the process.
 * Every process still running can be killed at once (afterAll/afterEach).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { ALLOCATOR_ENV } from '../../core/cli/allocator-env.ts';
import { CLI, REPO } from './cli-path.ts';
import { STATE_WAIT_MS } from './wait-for.ts';
import { atFileEnd } from './file-end.ts';

export interface RunningHost {
  url: string;
  port: number;
  child: ChildProcess;
  stdout(): string;
  /** Everything written to standard error so far (the host's logs). */
  stderr(): string;
  /** Resolves when `pattern` appears in standard error (after `from` characters). */
  waitForLog(pattern: RegExp | string, from?: number): Promise<void>;
  /** Sends `signal` (SIGTERM) and resolves with the exit code once the process has exited. */
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

export interface SpawnHostOptions {
  env?: NodeJS.ProcessEnv;
  /** Working directory. @defaultValue the repository root */
  cwd?: string;
  /** The script run with node. @defaultValue the command cli-path.ts chooses (the sources, or the compiled one under npm test) */
  cli?: string;
  /** The command that serves: `serve`, or `dev` (whose first argument may be SRC). @defaultValue `serve` */
  command?: 'serve' | 'dev';
  /** Node options placed before the script (e.g. `--import ./hook.mjs`). */
  nodeArgs?: string[];
  /** Give up when `listening on` has not appeared by then. @defaultValue 60 s */
  timeoutMs?: number;
}

const running = new Set<RunningHost>();

export function spawnHost(args: string[], options: SpawnHostOptions = {}): Promise<RunningHost> {
  const child = spawn(process.execPath, [...(options.nodeArgs ?? []), options.cli ?? CLI, options.command ?? 'serve', ...args], {
    cwd: options.cwd ?? REPO,
    // With the allocator setting given, `vitrine serve` runs in this one process (no relaunch),
    // so `child` is the host itself.
    // (An `env` value of undefined removes that variable.)
    env: Object.fromEntries(Object.entries({ ...process.env, ...ALLOCATOR_ENV, ...options.env }).filter(([, v]) => v !== undefined)),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  const logWaiters = new Set<() => void>();
  child.stdout!.setEncoding('utf8');
  child.stderr!.setEncoding('utf8');
  child.stderr!.on('data', (text: string) => {
    err += text;
    for (const check of [...logWaiters]) check();
  });
  const exited = new Promise<number | null>((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) resolve(child.exitCode);
    else child.once('exit', (code) => resolve(code));
  });
  return new Promise((resolve, reject) => {
    const limit = options.timeoutMs ?? STATE_WAIT_MS;
    const timer = setTimeout(() => reject(new Error(`the host printed no 'listening on' within ${limit} ms:\n${out}\n${err}`)), limit);
    child.stdout!.on('data', (text: string) => {
      out += text;
      const match = /listening on (http:\/\/\S+)/.exec(out);
      if (!match || running.has(host)) return;
      clearTimeout(timer);
      host.url = match[1]!;
      host.port = Number(new URL(host.url).port);
      running.add(host);
      resolve(host);
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`the host exited with ${code} before listening:\n${out}\n${err}`));
    });
    const host: RunningHost = {
      url: '',
      port: 0,
      child,
      stdout: () => out,
      stderr: () => err,
      waitForLog(pattern, from = 0) {
        const found = () => (typeof pattern === 'string' ? err.indexOf(pattern, from) >= 0 : pattern.test(err.slice(from)));
        if (found()) return Promise.resolve();
        return new Promise<void>((done) => {
          const check = () => {
            if (!found()) return;
            logWaiters.delete(check);
            done();
          };
          logWaiters.add(check);
        });
      },
      stop(signal = 'SIGTERM') {
        running.delete(host);
        if (child.exitCode === null && child.signalCode === null) child.kill(signal);
        return exited;
      },
    };
  });
}

/** Kills every host still running. */
export async function killAllHosts(): Promise<void> {
  await Promise.all([...running].map((host) => host.stop('SIGKILL')));
}

// A host a test file did not stop is killed when the file ends.
atFileEnd(killAllHosts);
