/**
 * @module spawn-host
 * The one way tests start a host process: `node [nodeArgs] <cli> serve|dev ...args` (the
 * repository's CLI by default), resolved once it prints its `listening on` line. Keeps standard output and
 * standard error for assertions, can wait for a log line, and stops or kills the process.
 * Every process still running can be killed at once (afterAll/afterEach). A host is never
 * left to the user's data folder: without a `--data-dir` in its arguments it gets a temporary
 * folder of its own (removed when the test file ends), so parallel hosts never share one.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ALLOCATOR_ENV } from '../../core/cli/allocator-env.ts';
import { CLI, REPO } from './cli-path.ts';
import { STATE_WAIT_MS } from './wait-for.ts';
import { atFileEnd } from './file-end.ts';

export interface RunningHost {
  url: string;
  port: number;
  child: ChildProcess;
  /** The folder the host keeps its work in (its `--data-dir`; `none` for memory only; '' when the host chose). */
  dataDir: string;
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
  /**
   * Leave the data folder to the host (its default under the `env` given) rather than give it a
   * temporary one: only for tests of that default, which point HOME or XDG_DATA_HOME elsewhere.
   */
  hostDataDir?: boolean;
  /** Give up when `listening on` has not appeared by then. @defaultValue 60 s */
  timeoutMs?: number;
}

const running = new Set<RunningHost>();
/** Data folders made for hosts, removed when the test file ends. */
const madeDirs: string[] = [];

/** The `--data-dir` in `args`, or a temporary folder appended to them. */
export function withDataDir(args: string[]): { args: string[]; dataDir: string } {
  const at = args.findIndex((arg) => arg === '--data-dir' || arg.startsWith('--data-dir='));
  if (at >= 0) return { args, dataDir: args[at]!.includes('=') ? args[at]!.slice('--data-dir='.length) : args[at + 1]! };
  const dataDir = mkdtempSync(path.join(tmpdir(), 'vitrine-test-data-'));
  madeDirs.push(dataDir);
  return { args: [...args, '--data-dir', dataDir], dataDir };
}

export function spawnHost(given: string[], options: SpawnHostOptions = {}): Promise<RunningHost> {
  const { args, dataDir } = options.hostDataDir ? { args: given, dataDir: '' } : withDataDir(given);
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
      dataDir,
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

// A host a test file did not stop is killed when the file ends, and the folders made for hosts go.
atFileEnd(async () => {
  await killAllHosts();
  for (const dir of madeDirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});
