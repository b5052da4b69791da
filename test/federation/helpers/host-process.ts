/**
 * @module host-process
 * Real `vitrine serve` processes for the federation tests: spawns one, waits for its
 * `listening on` line, keeps its standard error for log assertions, and kills it.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export const ROOT = fileURLToPath(new URL('../../..', import.meta.url));
const CLI = 'core/cli/vitrine.mjs';

export interface HostProcess {
  url: string;
  port: number;
  child: ChildProcess;
  /** Everything written to standard error so far. */
  logs(): string;
  /** Resolves when `pattern` appears in standard error (after `from` characters). */
  waitForLog(pattern: RegExp | string, from?: number): Promise<void>;
  kill(signal?: NodeJS.Signals): Promise<void>;
}

const running = new Set<HostProcess>();

export async function startHost(args: string[], options: { port?: number } = {}): Promise<HostProcess> {
  const child = spawn(process.execPath, [CLI, 'serve', '--port', String(options.port ?? 0), '--no-viewer', '--pool-size', '2', ...args], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  const logWaiters: (() => void)[] = [];
  child.stderr!.setEncoding('utf8');
  child.stderr!.on('data', (text: string) => {
    stderr += text;
    for (const w of [...logWaiters]) w();
  });
  const url = await new Promise<string>((resolve, reject) => {
    let stdout = '';
    child.stdout!.setEncoding('utf8');
    child.stdout!.on('data', (text: string) => {
      stdout += text;
      const match = /listening on (http:\/\/\S+)/.exec(stdout);
      if (match) resolve(match[1]!);
    });
    child.once('exit', (code) => reject(new Error(`vitrine serve exited with ${code}: ${stderr}`)));
  });
  const exited = new Promise<void>((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) resolve();
    else child.once('exit', () => resolve());
  });
  const host: HostProcess = {
    url,
    port: Number(new URL(url).port),
    child,
    logs: () => stderr,
    waitForLog(pattern, from = 0) {
      const test = () => (typeof pattern === 'string' ? stderr.indexOf(pattern, from) >= 0 : pattern.test(stderr.slice(from)));
      if (test()) return Promise.resolve();
      return new Promise<void>((resolve) => {
        const check = () => {
          if (!test()) return;
          logWaiters.splice(logWaiters.indexOf(check), 1);
          resolve();
        };
        logWaiters.push(check);
      });
    },
    async kill(signal = 'SIGTERM') {
      running.delete(host);
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      await exited;
    },
  };
  running.add(host);
  return host;
}

/** Kills every host still running (afterAll/afterEach). */
export async function killAll(): Promise<void> {
  await Promise.all([...running].map((h) => h.kill('SIGKILL')));
}

/** The ids in a host's catalog, in its order. */
export async function catalogIds(host: HostProcess): Promise<string[]> {
  return ((await (await fetch(`${host.url}/api/specimens`)).json()) as { id: string }[]).map((e) => e.id);
}

/** Resolves once every id in `ids` is in the host's catalog (workers register asynchronously). */
export function registered(host: HostProcess, ...ids: string[]): Promise<true> {
  return eventually(async () => {
    const listed = await catalogIds(host);
    return ids.every((id) => listed.includes(id)) ? true : undefined;
  }, `${ids.join(', ')} in the catalog`);
}

/** Polls `probe` until it returns a value other than undefined (state that changes asynchronously). */
export async function eventually<T>(probe: () => Promise<T | undefined>, what: string, limitMs = 20_000): Promise<T> {
  const deadline = Date.now() + limitMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`gave up waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
