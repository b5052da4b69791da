/**
 * @module redis-server
 * A real Redis for the scale-out tests: Debian's `redis-server` as a child process on a free
 * loopback port, with no persistence (`--save '' --appendonly no`), resolved once it answers
 * PING. It can be stopped (SIGTERM), killed (SIGKILL) and started again on the same port, for
 * "Redis went away and came back" tests. Every server still running is stopped when the test
 * file ends (and killed if the test process exits first). A missing `redis-server` is a
 * failure with the install hint, never a skip.
 *
 * @example
 * const redis = await startRedis();
 * const host = await spawnHost(['--redis', redis.url]);
 * await redis.stop(); ... await redis.restart();
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { createConnection } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { STATE_WAIT_MS, waitFor } from './wait-for.ts';
import { freePort } from './free-port.ts';
import { atFileEnd } from './file-end.ts';

export interface RedisServer {
  port: number;
  /** `redis://127.0.0.1:<port>` */
  url: string;
  /** Whether the server process is up (started and not yet exited). */
  readonly running: boolean;
  /** SIGTERM, then resolves once the process has exited (SIGKILL if it lingers 10 s). */
  stop(): Promise<void>;
  /** SIGKILL, then resolves once the process has exited. */
  kill(): Promise<void>;
  /** Starts the server again on the same port (stopping it first if it still runs); resolves once it answers PING. */
  restart(): Promise<void>;
  /** SIGSTOP: the process stays, its connections stay open, and it answers nothing (a stall). */
  freeze(): void;
  /** SIGCONT after {@link freeze}. */
  thaw(): void;
}

// A backstop for a server that never answers (wait-for.ts says how it is sized).
const READY_LIMIT_MS = STATE_WAIT_MS;
const live = new Set<ChildProcess>();
const dataDirs = new Set<string>();

/** Resolves true when a Redis on `port` answers PING with PONG, false otherwise. */
export function ping(port: number, timeoutMs = 1000): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = createConnection({ host: '127.0.0.1', port });
    let reply = '';
    const done = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(timeoutMs, () => done(false));
    socket.once('error', () => done(false));
    socket.once('connect', () => socket.write('PING\r\n'));
    socket.on('data', (chunk) => {
      reply += chunk.toString('latin1');
      if (reply.includes('\r\n')) done(reply.startsWith('+PONG'));
    });
  });
}

function exited(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => child.once('exit', () => resolve()));
}

/** Launches `binary` on `port` and resolves once it answers PING; rejects with its output if it cannot. */
async function launch(binary: string, port: number, dir: string, extra: string[]): Promise<ChildProcess> {
  const args = ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', dir, '--daemonize', 'no', ...extra];
  const child = spawn(binary, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  const keep = (chunk: Buffer) => void (output = (output + chunk.toString('utf8')).slice(-4000));
  child.stdout!.on('data', keep);
  child.stderr!.on('data', keep);
  live.add(child);
  let gone: Error | null = null;
  child.once('error', (error: NodeJS.ErrnoException) => {
    live.delete(child);
    gone ??= error.code === 'ENOENT'
      ? new Error(`${binary} is not installed (or not on PATH); the Redis tests need it: apt-get install -y redis-server (.ci/run installs it)`)
      : error;
  });
  child.once('exit', (code, signal) => {
    live.delete(child);
    gone ??= new Error(`redis-server on port ${port} exited (${code ?? signal}) before answering PING:\n${output}`);
  });
  // A server that is gone ends the wait at once (a probe's throw would only be retried).
  const ready = async (): Promise<Error | true | undefined> => {
    if (gone) return gone;
    // Its own log line too, so a different server already on the port is never taken for it.
    return output.includes('Ready to accept connections') && (await ping(port, 500)) ? true : undefined;
  };
  let outcome: Error | true;
  try {
    outcome = await waitFor(ready, `redis-server on port ${port} to answer PING`, READY_LIMIT_MS);
  } catch {
    child.kill('SIGKILL');
    throw new Error(`redis-server on port ${port} did not answer PING within ${READY_LIMIT_MS} ms:\n${output}`);
  }
  if (outcome !== true) throw outcome;
  return child;
}

export interface StartRedisOptions {
  /** @defaultValue a free loopback port */
  port?: number;
  /** @defaultValue `redis-server` on the PATH */
  binary?: string;
  /**
   * More `redis-server` arguments, after the defaults so they win (e.g. `--appendonly yes` for
   * a Redis that keeps its data across a restart, `--maxmemory 64mb`); kept for restarts.
   */
  args?: string[];
}

/** Starts a Redis on a free loopback port (or `port`), resolved once it answers PING. */
export async function startRedis(options: StartRedisOptions = {}): Promise<RedisServer> {
  const binary = options.binary ?? 'redis-server';
  const dir = await mkdtemp(join(tmpdir(), 'vitrine-redis-'));
  dataDirs.add(dir);
  let port = options.port ?? (await freePort());
  let child: ChildProcess | undefined;
  // The free port may be taken between the probe and redis-server binding it: try a few.
  for (let attempt = 0; !child; attempt++) {
    try {
      child = await launch(binary, port, dir, options.args ?? []);
    } catch (error) {
      const taken = error instanceof Error && /address already in use/i.test(error.message);
      if (!taken || options.port !== undefined || attempt >= 4) throw error;
      port = await freePort();
    }
  }
  const isRunning = () => child!.exitCode === null && child!.signalCode === null;
  const server: RedisServer = {
    port,
    url: `redis://127.0.0.1:${port}`,
    get running() {
      return isRunning();
    },
    async stop() {
      if (!isRunning()) return;
      const current = child!;
      current.kill('SIGTERM');
      const lingering = setTimeout(() => current.kill('SIGKILL'), 10_000);
      await exited(current);
      clearTimeout(lingering);
    },
    async kill() {
      if (!isRunning()) return;
      child!.kill('SIGKILL');
      await exited(child!);
    },
    async restart() {
      await server.stop();
      child = await launch(binary, port, dir, options.args ?? []);
    },
    freeze() {
      if (isRunning()) child!.kill('SIGSTOP');
    },
    thaw() {
      if (isRunning()) child!.kill('SIGCONT');
    },
  };
  return server;
}

/** Stops every Redis this test file started (runs by itself after the file's tests). */
export async function stopAllRedis(): Promise<void> {
  await Promise.all([...live].map(async (child) => {
    child.kill('SIGTERM');
    const lingering = setTimeout(() => child.kill('SIGKILL'), 5_000);
    await exited(child);
    clearTimeout(lingering);
  }));
  await Promise.all([...dataDirs].map((dir) => rm(dir, { recursive: true, force: true })));
  dataDirs.clear();
}

// Each test file stops the servers it started when it ends; a benchmark stops them itself.
atFileEnd(stopAllRedis);
// A test process that ends without its afterAll (a crash, a timeout) leaves no server behind.
process.once('exit', () => {
  for (const child of live) child.kill('SIGKILL');
});
