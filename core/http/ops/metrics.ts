/**
 * @module metrics
 * `GET /metrics` in the Prometheus text format (prom-client, one registry per host): requests
 * by route and status with their durations, bytes sent by kind (envelope, JSON, file), room
 * cache hits, misses, entries and bytes, jobs by state, compute threads busy and work queued,
 * federation workers connected, level sets built or read back, the headset agent's turns,
 * tools and tokens (agent-metrics.ts), and the process's own figures. Guarded by --admin-token.
 */
import type { ServerResponse } from 'node:http';
import type { FastifyInstance, FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify';
import { Counter, Gauge, Registry, collectDefaultMetrics, type Metric } from 'prom-client';
import type { HostContext } from '../../host-context.ts';
import type { RoomScheduler } from '../../invoke/room-scheduler.ts';
import { RequestDurations, type RouteDurations } from './request-durations.ts';
import type { AgentFigures } from '../../agent/agent-figures.ts';
import { registerAgentMetrics } from './agent-metrics.ts';
import { routeOf } from '../route-of.ts';

type Kind = 'envelope' | 'json' | 'file' | 'other';
const KINDS: readonly Kind[] = ['envelope', 'json', 'file', 'other'];

const STARTED = Symbol('vitrine.metrics.started');
const ROUTE = Symbol('vitrine.metrics.route');

/** A response being timed: when its request arrived and the series of its route. */
interface TimedResponse extends ServerResponse {
  [STARTED]: number;
  [ROUTE]: RouteDurations;
}

function kindOf(contentType: string, envelopeMediaType: string): Kind {
  if (contentType.startsWith(envelopeMediaType)) return 'envelope';
  if (contentType.startsWith('application/json')) return 'json';
  if (contentType === '' || contentType.startsWith('text/')) return 'other';
  return 'file';
}

/** What the host's parts count, beside the context: compute threads, the agent, level sets. */
export interface HostFigures {
  scheduler: RoomScheduler;
  agent: AgentFigures;
  /** Level sets built since start, found where sets are kept, and written there (meshes/mesh-lods.ts). */
  meshLevels: { readonly built: number; readonly found: number; readonly kept: number };
}

/** Adds the request hook to the root instance (so it sees every route) and the /metrics route. */
export function installMetrics(app: FastifyInstance, ctx: HostContext, figures: HostFigures): void {
  const { scheduler, agent, meshLevels } = figures;
  const registry = new Registry();
  collectDefaultMetrics({ register: registry, prefix: 'vitrine_process_' });
  registerAgentMetrics(registry, agent);
  const durations = new RequestDurations({
    name: 'vitrine_http_request_duration_seconds',
    help: 'HTTP requests by route and status, with their duration until the response ended',
    buckets: [0.001, 0.005, 0.02, 0.1, 0.5, 2, 10, 60],
  });
  registry.registerMetric(durations as unknown as Metric);
  // Bytes are added up here per kind and handed to the counter only when /metrics is read.
  const sent: Record<Kind, number> = { envelope: 0, json: 0, file: 0, other: 0 };
  new Counter({
    name: 'vitrine_http_response_bytes_total',
    help: 'Response bytes announced by Content-Length, by kind',
    labelNames: ['kind'],
    registers: [registry],
    collect() {
      this.reset();
      for (const kind of KINDS) if (sent[kind] > 0) this.inc({ kind }, sent[kind]);
    },
  });
  const gauge = (name: string, help: string, collect: (g: Gauge) => void, labelNames: string[] = []) =>
    new Gauge({ name, help, labelNames, registers: [registry], collect() { collect(this); } });
  gauge('vitrine_cache_lookups', 'Room cache lookups by outcome (hit, miss, shared: joined a running computation)', (g) => {
    for (const [outcome, n] of Object.entries(ctx.results.accessCounts)) g.set({ outcome }, n);
  }, ['outcome']);
  gauge('vitrine_cache_entries', 'Room cache entries', (g) => g.set(ctx.results.figures().entries));
  gauge('vitrine_results_bytes', 'Bytes of results held (room entries and finished jobs)', (g) => g.set(ctx.results.figures().bytes));
  gauge('vitrine_results_max_bytes', 'The byte budget (--cache-max-bytes)', (g) => g.set(ctx.results.figures().maxBytes ?? 0));
  gauge('vitrine_jobs', 'Jobs by state', (g) => {
    for (const [state, n] of Object.entries(ctx.jobs.counts())) g.set({ state }, n);
  }, ['state']);
  gauge('vitrine_compute_threads_busy', 'Compute threads running a function', (g) => g.set(scheduler.busy));
  gauge('vitrine_compute_threads', 'Compute threads of this host', (g) => g.set(scheduler.threads));
  gauge('vitrine_compute_queued', 'Runs waiting for a compute thread', (g) => g.set(scheduler.queued));
  const levelsHelp = 'Level sets of surfaces since start: built here, found where results are kept, and kept there';
  gauge('vitrine_mesh_level_sets', levelsHelp, (g) => {
    for (const how of ['built', 'found', 'kept'] as const) g.set({ how }, meshLevels[how]);
  }, ['how']);
  gauge('vitrine_federation_workers', 'Federation workers connected (relay only)', (g) => {
    g.set(new Set(ctx.catalog.list().flatMap((r) => (r.worker_id ? [r.worker_id] : []))).size);
  });

  const envelopeMediaType = ctx.options.envelopeMediaType;
  // Counted when the raw response closes: envelopes written straight to the socket count too,
  // and so do clients gone early and injected requests (which end without 'finish'). One
  // listener shared by every response, its state kept on the response: nothing made per request.
  function onClose(this: TimedResponse): void {
    this[ROUTE].observe(this.req.method ?? 'GET', this.statusCode, (performance.now() - this[STARTED]) / 1000);
    const length = Number(this.getHeader('content-length') ?? 0);
    if (length > 0) sent[kindOf(String(this.getHeader('content-type') ?? ''), envelopeMediaType)] += length;
  }
  app.addHook('onRequest', (request: FastifyRequest, reply: FastifyReply, done: HookHandlerDoneFunction) => {
    const res = reply.raw as TimedResponse;
    res[STARTED] = performance.now();
    res[ROUTE] = durations.route(routeOf(request).url ?? 'unmatched');
    res.on('close', onClose);
    done();
  });
  app.get('/metrics', async (_request, reply) => {
    reply.type(registry.contentType);
    return registry.metrics();
  });
}
