/**
 * @module service
 * A Redis service of real processes for the scale-out tests: a `redis-server`, `vitrine serve
 * --redis URL` hosts and `vitrine worker --redis URL` workers on the fixture plugins, with a
 * specimens folder naming the fixture functions and a folder the `counted` and `ticker`
 * fixtures write their runs and ticks to (so a test counts runs whichever process computes).
 * Everything a file starts is stopped when the file ends. Also the HTTP calls the tests share
 * (waiting uses helpers/wait-for.ts).
 */
import { randomUUID } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import { fixturePluginsDir } from '../helpers/fixture-plugins.ts';
import { startRedis, type RedisServer } from '../helpers/redis-server.ts';
import { killAllHosts, spawnHost, type RunningHost } from '../helpers/spawn-host.ts';
import { killAllWorkers, spawnWorker, type RunningWorker } from '../helpers/spawn-worker.ts';
import { STATE_WAIT_MS, waitFor } from '../helpers/wait-for.ts';

/** Dynamic specimens of the fixture functions, by id. */
const SPECIMENS = { tick: 'ticker', steps: 'steps', count: 'counted', boom: 'explode', big: 'big_volume' } as const;

export interface Service {
  redis: RedisServer;
  plugins: string;
  specimens: string;
  /** Where `counted` and `ticker` write (pass it as their `dir`). */
  runs: string;
  /** A host of this service: `--compute 0` by default (a front end), more `args` after. */
  host(options?: { compute?: number; args?: string[] }): Promise<RunningHost>;
  /** A `vitrine worker` of this service on the fixture plugins (or `plugins`). */
  worker(options?: { poolSize?: number; plugins?: string }): Promise<RunningWorker>;
}

export interface ServiceOptions {
  /** More `redis-server` arguments for the service's Redis (see helpers/redis-server.ts). */
  redisArgs?: string[];
  /** A Redis for result bytes: every host and worker gets `--blob-store` with its URL. */
  blobStore?: RedisServer;
  /** The plugins folder of every host and worker (default: the fixture plugins). */
  plugins?: string;
}

export async function startService(options: ServiceOptions = {}): Promise<Service> {
  const blob = options.blobStore ? ['--blob-store', options.blobStore.url] : [];
  const [redis, plugins, specimens, runs] = await Promise.all([
    startRedis({ args: options.redisArgs }),
    options.plugins ?? fixturePluginsDir(),
    mkdtemp(join(tmpdir(), 'vitrine-scale-specimens-')),
    mkdtemp(join(tmpdir(), 'vitrine-scale-runs-')),
  ]);
  for (const [id, fn] of Object.entries(SPECIMENS)) {
    await mkdir(join(specimens, id));
    await writeFile(join(specimens, id, 'specimen.json'), JSON.stringify({ display_name: id, type: id === 'big' ? 'volume' : 'mesh', function_name: fn }));
  }
  return {
    redis,
    plugins,
    specimens,
    runs,
    host: ({ compute = 0, args = [] } = {}) =>
      spawnHost(['--port', '0', '--no-viewer', '--log-level', 'warn', '--pool-size', String(Math.max(1, compute)), '--compute', String(compute),
        '--redis', redis.url, ...blob, '--plugins', plugins, '--specimens', specimens, ...args]),
    worker: ({ poolSize = 2, plugins: dir = plugins } = {}) =>
      spawnWorker(['--redis', redis.url, ...blob, '--plugins', dir, '--pool-size', String(poolSize), '--log-level', 'warn']),
  };
}

afterAll(async () => {
  await Promise.all([killAllHosts(), killAllWorkers()]);
});

/** A file's service: Redis, two front-end hosts `a` and `b` and one worker, set before its tests run. */
export interface TwoHosts {
  service: Service;
  a: RunningHost;
  b: RunningHost;
}

/** Starts a TwoHosts service before the file's tests (everything stops when the file ends). */
export function useTwoHosts(worker: { poolSize?: number } = {}): TwoHosts {
  const s = {} as TwoHosts;
  beforeAll(async () => {
    s.service = await startService();
    [s.a, s.b] = await Promise.all([s.service.host(), s.service.host()]);
    await s.service.worker(worker);
  });
  return s;
}

/** A room id no other test uses (the one helper for it, here for the scale suites). */
export { room } from '../helpers/room.ts';

/** A unique tag for the `counted`/`ticker` files. */
export function tag(): string {
  return randomUUID().slice(0, 8);
}

/** Lines in `runs`/`name` (0 when it does not exist yet). */
export function lineCount(runs: string, name: string): number {
  const file = join(runs, name);
  return existsSync(file) ? readFileSync(file, 'utf8').split('\n').filter(Boolean).length : 0;
}


export interface ProgressBody {
  status: 'running' | 'done' | 'error';
  messages: { seq: number; text: string; ts: number; fraction?: number }[];
  error: string | null;
}

/** POST /api/specimens/{id}/start; returns the job id. */
export async function startJob(host: RunningHost, specimen: string, params: object, roomId: string): Promise<string> {
  const res = await fetch(`${host.url}/api/specimens/${specimen}/start`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ params, room_id: roomId }),
  });
  const body = (await res.json()) as { job_id?: string };
  if (res.status !== 200 || !body.job_id) throw new Error(`/start answered ${res.status}: ${JSON.stringify(body)}`);
  return body.job_id;
}

/** GET /api/jobs/{id}/progress (with `since` when given); throws unless it answers 200. */
export async function progress(host: RunningHost, id: string, since?: number): Promise<ProgressBody> {
  const res = await fetch(`${host.url}/api/jobs/${id}/progress${since === undefined ? '' : `?since=${since}`}`);
  if (res.status !== 200) throw new Error(`progress answered ${res.status}: ${await res.text()}`);
  return (await res.json()) as ProgressBody;
}

/** Waits until job `id` has ended, as `host` sees it. */
export function ended(host: RunningHost, id: string, limitMs = STATE_WAIT_MS): Promise<ProgressBody> {
  return waitFor(async () => {
    const body = await progress(host, id);
    return body.status === 'running' ? undefined : body;
  }, `job ${id} to end on ${host.url}`, limitMs);
}

/**
 * Runs a control ticker (a tick every 20 ms for 0.4 s) as a job on `host` in `roomId`: on a
 * one-thread worker it runs only once any thread before it is free. `atFirstTick` is read when
 * the control's first tick is written; the answer comes once the control has ended, having
 * ticked about 20 times at the interval of the ticker fixture; the window in which a ticker
 * that should have stopped shows whether it still ticks, with no fixed sleep.
 */
export async function controlTicker<T>(
  host: RunningHost,
  runs: string,
  roomId: string,
  atFirstTick: () => T,
): Promise<{ id: string; final: ProgressBody; ticks: number; atFirstTick: T }> {
  const control = tag();
  const id = await startJob(host, 'tick', { dir: runs, tag: control, interval_ms: 20, seconds: 0.4 }, roomId);
  const first = await waitFor(() => (lineCount(runs, `${control}.ticks`) > 0 ? { value: atFirstTick() } : undefined), 'the control ticker to tick');
  const final = await ended(host, id);
  return { id, final, ticks: lineCount(runs, `${control}.ticks`), atFirstTick: first.value };
}

/** GET /api/specimens/{id}/data with `params` in `roomId`: status and body bytes. */
export async function getData(host: RunningHost, specimen: string, params: object, roomId: string): Promise<{ status: number; body: Buffer }> {
  const query = new URLSearchParams({ params: JSON.stringify(params), room_id: roomId });
  const res = await fetch(`${host.url}/api/specimens/${specimen}/data?${query}`);
  return { status: res.status, body: Buffer.from(await res.arrayBuffer()) };
}

/** POST /api/processing/invoke: status and parsed body. */
export async function invoke(host: RunningHost, fn: string, params: object, roomId: string): Promise<{ status: number; body: Record<string, unknown> }> {
  const res = await fetch(`${host.url}/api/processing/invoke`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ function_name: fn, kwargs: params, room_id: roomId }),
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

/** What an error detail must never say: Redis's or its client library's own words. */
export const QUOTED = /OOM command|writeable|enableOfflineQueue|ECONNREFUSED|script:|Connection is closed|[0-9a-f]{40}/;

/** GET /readyz: status and detail. */
export async function readyz(host: RunningHost): Promise<{ status: number; detail: string }> {
  const res = await fetch(`${host.url}/readyz`);
  const body = (await res.json()) as { detail?: string };
  return { status: res.status, detail: body.detail ?? '' };
}
