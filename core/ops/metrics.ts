/**
 * @module metrics
 * `GET /metrics` in the Prometheus text format (prom-client, one registry per host): requests
 * by route and status with their durations, bytes sent by kind (envelope, JSON, file), room
 * cache hits, misses, entries and bytes, jobs by state, compute threads busy and work queued,
 * federation workers connected, and the process's own figures. Guarded by --admin-token.
 */
import type { FastifyInstance } from 'fastify';
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import type { HostContext } from '../host-context.ts';
import type { RoomScheduler } from '../invoke/room-scheduler.ts';

function kindOf(contentType: string, envelopeMediaType: string): 'envelope' | 'json' | 'file' | 'other' {
  if (contentType.startsWith(envelopeMediaType)) return 'envelope';
  if (contentType.startsWith('application/json')) return 'json';
  if (contentType === '' || contentType.startsWith('text/')) return 'other';
  return 'file';
}

/** Adds the request hook to the root instance (so it sees every route) and the /metrics route. */
export function installMetrics(app: FastifyInstance, ctx: HostContext, scheduler: RoomScheduler): void {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry, prefix: 'vitrine_process_' });
  const requests = new Histogram({
    name: 'vitrine_http_request_duration_seconds',
    help: 'HTTP requests by route and status, with their duration until the response ended',
    labelNames: ['method', 'route', 'status'],
    buckets: [0.001, 0.005, 0.02, 0.1, 0.5, 2, 10, 60],
    registers: [registry],
  });
  const bytesSent = new Counter({ name: 'vitrine_http_response_bytes_total', help: 'Response bytes announced by Content-Length, by kind', labelNames: ['kind'], registers: [registry] });
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
  gauge('vitrine_federation_workers', 'Federation workers connected (relay only)', (g) => {
    g.set(new Set(ctx.catalog.list().flatMap((r) => (r.worker_id ? [r.worker_id] : []))).size);
  });

  app.addHook('onRequest', async (request, reply) => {
    const started = process.hrtime.bigint();
    // On the raw response, so envelopes written straight to the socket are counted too
    // ('close' for a client gone early and for injected requests, which end without 'finish').
    let counted = false;
    const count = () => {
      if (counted) return;
      counted = true;
      const route = request.routeOptions.url ?? 'unmatched';
      const seconds = Number(process.hrtime.bigint() - started) / 1e9;
      requests.observe({ method: request.method, route, status: String(reply.raw.statusCode) }, seconds);
      const length = Number(reply.raw.getHeader('content-length') ?? 0);
      if (length > 0) bytesSent.inc({ kind: kindOf(String(reply.raw.getHeader('content-type') ?? ''), ctx.options.envelopeMediaType) }, length);
    };
    reply.raw.once('finish', count);
    reply.raw.once('close', count);
  });
  app.get('/metrics', async (_request, reply) => {
    reply.type(registry.contentType);
    return registry.metrics();
  });
}
