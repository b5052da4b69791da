/**
 * @module metrics-registry
 * The prom-client registry behind `GET /metrics`, built when /metrics is first asked for
 * (metrics.ts): the process's own figures, the agent's series, request durations, bytes sent
 * by kind, and the gauges read from the host's parts each time the registry is scraped (the
 * plugins and federation workers in plugin-metrics.ts).
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { Registry, collectDefaultMetrics, type Histogram, type Metric } from 'prom-client';
import type { HostContext } from '../../host-context.ts';
import { registerAgentMetrics } from './agent-metrics.ts';
import { counter, gauge } from './figure-series.ts';
import { registerPluginMetrics } from './plugin-metrics.ts';
import { GC_BUCKETS, type GcTally } from './gc-tally.ts';
import type { RequestDurations } from './request-durations.ts';
import type { AgentFigures } from '../../agent/agent-figures.ts';
import type { RoomScheduler } from '../../invoke/room-scheduler.ts';

export type Kind = 'envelope' | 'json' | 'file' | 'other';
const KINDS: readonly Kind[] = ['envelope', 'json', 'file', 'other'];

/** How often the process figures' event loop monitor measures (prom-client's default). */
const LOOP_MONITOR_MS = 10;

/** What the host's parts count, beside the context: compute threads, the agent, level sets. */
export interface HostFigures {
  scheduler: RoomScheduler;
  agent: AgentFigures;
  /** Level sets built since start, found where sets are kept, and written there (meshes/mesh-lods.ts). */
  meshLevels: { readonly built: number; readonly found: number; readonly kept: number };
}

/** What the host counted since it started, handed to the registry when it is built. */
export interface CountedSoFar {
  durations: RequestDurations;
  /** Response bytes per kind, added up by the request hook. */
  sent: Readonly<Record<Kind, number>>;
  /** Garbage collections until now. */
  gc: GcTally;
}

/** The host's own series, in the order /metrics lists them after the process figures. */
function registerHostMetrics(registry: Registry, ctx: HostContext, figures: HostFigures, counted: CountedSoFar): void {
  const { scheduler, agent, meshLevels } = figures;
  const { durations, sent } = counted;
  registerAgentMetrics(registry, agent);
  registry.registerMetric(durations as unknown as Metric);
  // Bytes are added up per kind by the hook and handed to the counter only when /metrics is read.
  counter(registry, 'vitrine_http_response_bytes_total', 'Response bytes announced by Content-Length, by kind', ['kind'], (set) => {
    for (const kind of KINDS) set({ kind }, sent[kind]);
  });
  gauge(registry, 'vitrine_cache_lookups', 'Room cache lookups by outcome (hit, miss, shared: joined a running computation)', (g) => {
    for (const [outcome, n] of Object.entries(ctx.results.accessCounts)) g.set({ outcome }, n);
  }, ['outcome']);
  gauge(registry, 'vitrine_cache_entries', 'Room cache entries', (g) => g.set(ctx.results.figures().entries));
  gauge(registry, 'vitrine_results_bytes', 'Bytes of results held (room entries and finished jobs)', (g) => g.set(ctx.results.figures().bytes));
  gauge(registry, 'vitrine_results_max_bytes', 'The byte budget (--cache-max-bytes)', (g) => g.set(ctx.results.figures().maxBytes ?? 0));
  gauge(registry, 'vitrine_jobs', 'Jobs by state', (g) => {
    for (const [state, n] of Object.entries(ctx.jobs.counts())) g.set({ state }, n);
  }, ['state']);
  gauge(registry, 'vitrine_compute_threads_busy', 'Compute threads running a function', (g) => g.set(scheduler.busy));
  gauge(registry, 'vitrine_compute_threads', 'Compute threads of this host', (g) => g.set(scheduler.threads));
  gauge(registry, 'vitrine_compute_queued', 'Runs waiting for a compute thread', (g) => g.set(scheduler.queued));
  const levelsHelp = 'Level sets of surfaces since start: built here, found where results are kept, and kept there';
  gauge(registry, 'vitrine_mesh_level_sets', levelsHelp, (g) => {
    for (const how of ['built', 'found', 'kept'] as const) g.set({ how }, meshLevels[how]);
  }, ['how']);
  const versionsHelp = 'Versions of edited labels layers made whole since start (read as voxels)';
  gauge(registry, 'vitrine_labels_versions_made', versionsHelp, (g) => g.set(ctx.editing.versionsMade));
  gauge(registry, 'vitrine_federation_workers', 'Federation workers connected (relay only)', (g) => {
    g.set(new Set(ctx.catalog.list().flatMap((r) => (r.worker_id ? [r.worker_id] : []))).size);
  });
  registerPluginMetrics(registry, ctx);
}

/**
 * The registry of one host. Its process figures start with it: collections counted so far are
 * handed over, and the event loop's delays (reported per scrape) are measured from then, so
 * this waits until the monitor has measured some rather than have the first scrape report an
 * empty histogram.
 */
export async function buildMetricsRegistry(ctx: HostContext, figures: HostFigures, counted: CountedSoFar): Promise<Registry> {
  const registry = new Registry();
  const prefix = 'vitrine_process_';
  collectDefaultMetrics({ register: registry, prefix, eventLoopMonitoringPrecision: LOOP_MONITOR_MS, gcDurationBuckets: [...GC_BUCKETS] });
  const collections = registry.getSingleMetric(`${prefix}nodejs_gc_duration_seconds`) as Histogram<'kind'> | undefined;
  counted.gc.replay((kind, seconds) => collections?.observe({ kind }, seconds));
  registerHostMetrics(registry, ctx, figures, counted);
  await sleep(3 * LOOP_MONITOR_MS);
  return registry;
}
