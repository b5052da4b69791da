/**
 * @module metrics
 * `GET /metrics` in the Prometheus text format (prom-client, one registry per host): requests
 * by route and status with their durations, bytes sent by kind (envelope, JSON, file), room
 * cache hits, misses, entries and bytes, jobs by state, compute threads busy and work queued,
 * federation workers connected, level sets built or read back, the headset agent's turns,
 * tools and tokens (agent-metrics.ts), each plugin's serving version and each worker's specimens
 * (plugin-metrics.ts), and the process's own figures. Guarded by --admin-token.
 *
 * Requests and bytes are counted here from the first request on; prom-client and the registry
 * (metrics-registry.ts) load when /metrics is first asked for, so a host nobody scrapes never
 * pays for them (about a tenth of a second of CPU at every start).
 */
import type { ServerResponse } from 'node:http';
import type { FastifyInstance, FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify';
import type { Registry } from 'prom-client';
import type { HostContext } from '../../host-context.ts';
import { GcTally } from './gc-tally.ts';
import { RequestDurations, type RouteDurations } from './request-durations.ts';
import type { HostFigures, Kind } from './metrics-registry.ts';
import { routeOf } from '../route-of.ts';

export type { HostFigures } from './metrics-registry.ts';

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

/** Adds the request hook to the root instance (so it sees every route) and the /metrics route. */
export function installMetrics(app: FastifyInstance, ctx: HostContext, figures: HostFigures): void {
  const durations = new RequestDurations({
    name: 'vitrine_http_request_duration_seconds',
    help: 'HTTP requests by route and status, with their duration until the response ended',
    buckets: [0.001, 0.005, 0.02, 0.1, 0.5, 2, 10, 60],
  });
  const sent: Record<Kind, number> = { envelope: 0, json: 0, file: 0, other: 0 };
  const gc = new GcTally();
  let registry: Promise<Registry> | null = null;

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
  app.addHook('onClose', async () => gc.stop());
  app.get('/metrics', async (_request, reply) => {
    // One registry however many scrapes arrive while it is being built.
    registry ??= import('./metrics-registry.ts').then(({ buildMetricsRegistry }) => buildMetricsRegistry(ctx, figures, { durations, sent, gc }));
    const built = await registry;
    return reply.type(built.contentType).send(await built.metrics());
  });
}
