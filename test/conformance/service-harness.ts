/**
 * @module service-harness
 * What the result-source and job-service conformance cases (result-source-cases.ts,
 * job-service-cases.ts) need from an implementation, how to build it from any host made by
 * createApp (`harnessOf`), and the counting helpers both suites share (waiting: helpers/wait-for.ts).
 */
import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { onTestFinished } from 'vitest';
import { isHostError } from '../../core/errors.ts';
import type { EventHub } from '../../core/events/event-hub.ts';
import type { JobRequest, JobService } from '../../core/jobs/job-service.ts';
import { resolveParams } from '../../core/params/resolve-params.ts';
import { valueParameterNames } from '../../core/registry/function-entry.ts';
import type { ResultSource } from '../../core/serving/result-source.ts';
import { waitFor } from '../helpers/wait-for.ts';
import { hostContextOf } from '../../core/assembly/host-internals.ts';

/** Builds requests for the functions of test/fixtures/plugins/host-fixtures. */
export interface RequestMaker {
  /**
   * A request for fixture function `name` in room `roomId`, its `params` checked and their
   * defaults filled exactly as the routes do; `extra` adds a signal, onProgress, specimenId.
   */
  request(name: string, params: Record<string, unknown>, roomId: string, extra?: Partial<JobRequest>): JobRequest;
  /** Stops everything the harness started (its hosts, its connections). */
  close(): Promise<void>;
}

export interface ResultSourceHarness extends RequestMaker {
  results: ResultSource;
  /** The EventHub where `results` publishes room events, on roomChannel(roomId). */
  events: EventHub;
}

export interface JobServiceHarness extends RequestMaker {
  jobs: JobService;
}

/** Everything both suites need from one implementation. */
export type ServiceHarness = ResultSourceHarness & JobServiceHarness;

/**
 * How an implementation's test file hands itself to the suites: a harness per test, which the
 * case closes (a file may hand every case one shared host whose close does nothing: the cases
 * keep apart by rooms of their own and counts by differences). The in-memory one is
 * `harnessOf(await createApp(...))`; the Redis one is the same over a host created with its Redis URL.
 */
export type ServiceHarnessFactory = () => Promise<ServiceHarness>;

/** The harness of a host built by createApp: what its routes use (`hostContextOf(app)`). */
export function harnessOf(app: FastifyInstance): ServiceHarness {
  const context = hostContextOf(app);
  return {
    results: context.results,
    jobs: context.jobs,
    events: context.events,
    request(name, params, roomId, extra = {}) {
      const entry = context.functions.get(name);
      if (!entry) throw new Error(`fixture function ${name} is not registered`);
      const values = resolveParams(entry.schema, valueParameterNames(entry), { named: params }, entry.name);
      return { entry, values, roomId, specimenId: null, ...extra };
    },
    close: () => app.close(),
  };
}

/** A fresh harness from `make`, closed when the current test finishes. */
export async function use<H extends RequestMaker>(make: () => Promise<H>): Promise<H> {
  const harness = await make();
  onTestFinished(() => harness.close());
  return harness;
}

/** A new empty folder for the run-counting fixtures (`counted`, `ticker`). */
export function countDir(): Promise<string> {
  return mkdtemp(join(tmpdir(), 'vitrine-conformance-count-'));
}

/** Lines in `dir`/`file` (runs of `counted`, ticks of `ticker`); 0 when it does not exist yet. */
export async function linesIn(dir: string, file: string): Promise<number> {
  const text = await readFile(join(dir, file), 'utf8').catch(() => '');
  return text.split('\n').filter(Boolean).length;
}

/**
 * Resolves with `read()` once it has not changed for `quietMs` (a stopped function's tick
 * count); fails if it keeps changing past the deadline. Proving that something stopped needs
 * some window of silence; the ticking fixture writes every 20 ms, so 600 ms is 30 missed ticks.
 */
export async function quiet(read: () => Promise<number>, what: string, quietMs = 600, limitMs = 20_000): Promise<number> {
  let value = await read();
  let since = Date.now();
  return waitFor(async () => {
    const now = await read();
    if (now !== value) {
      value = now;
      since = Date.now();
      return undefined;
    }
    return Date.now() - since >= quietMs ? value : undefined;
  }, `${what} to stop changing`, limitMs);
}

/** The catalogued error `promise` rejects with (its code, status and message). */
export async function failure(promise: Promise<unknown>): Promise<{ code: string; statusCode: number; message: string }> {
  try {
    await promise;
  } catch (error) {
    if (!isHostError(error)) throw error;
    return { code: error.code, statusCode: error.statusCode, message: error.message };
  }
  throw new Error('expected a catalogued error');
}
