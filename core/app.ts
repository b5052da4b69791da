/**
 * @module app
 * `createApp(options)`: builds a host — registries, worker pools, room cache, jobs and every
 * route — and returns the fastify instance without listening (server.ts listens).
 *
 * @example
 * const app = await createApp({ specimensDir: null, pluginsDir: null, meshFunctions: { cube } });
 * const res = await app.inject({ method: 'POST', url: '/api/processing/invoke', payload: { function_name: 'cube' } });
 */
import Fastify, { LogController, type FastifyInstance } from 'fastify';
import { ResultBudget } from './cache/result-budget.ts';
import { RoomCache } from './cache/room-cache.ts';
import type { AfterReloadHook, HostContext } from './host-context.ts';
import { installErrorHandlers } from './http/error-handler.ts';
import { installHostCheck, resolveAllowedHosts } from './http/allowed-hosts.ts';
import { installJsonBodyParsers } from './http/json-body.ts';
import { INPUT_VALIDATION, toInputError } from './http/schema-errors.ts';
import { installLoadShedding } from './http/load-shedding.ts';
import { serverOptions } from './http/http-server.ts';
import { installWriteTimeout } from './http/write-timeout.ts';
import { jobRoutes } from './http/routes-jobs.ts';
import { processingRoutes } from './http/routes-processing.ts';
import { specimenDataRoutes } from './http/routes-specimen-data.ts';
import { specimenRoutes } from './http/routes-specimens.ts';
import { InlineInvoker } from './invoke/inline-invoker.ts';
import type { InvokerSet } from './invoke/invoker.ts';
import { PooledInvoker } from './invoke/pooled-invoker.ts';
import { RoomScheduler } from './invoke/room-scheduler.ts';
import { ResultService } from './results/result-service.ts';
import { JobStore } from './jobs/job-store.ts';
import { LocalJobs } from './jobs/local-jobs.ts';
import { resolveHostOptions, type HostOptions } from './options.ts';
import { toCodeSpecimen, toInlineEntry, type AnyFunction, type RegisterFunctionOptions, type RegisterSpecimenOptions } from './registry/code-registration.ts';
import type { FunctionEntry } from './registry/function-entry.ts';
import { FunctionRegistry } from './registry/function-registry.ts';
import { reloadSources, type ReloadCounts } from './registry/reload-sources.ts';
import { SpecimenCatalog } from './registry/specimen-catalog.ts';
import { JsonResultEncoder } from './results/json-encoder.ts';
import { ResultIds } from './results/result-ids.ts';
import { DeliveryVariants } from './delivery/delivery-variants.ts';
import { resultByteLength } from './results/to-json-result.ts';
import { viewerRoutes } from './viewer/viewer-routes.ts';
import { zarrRoutes } from './zarr/routes-zarr.ts';
import { clientRoute } from './assets/client-route.ts';
import { createPools } from './workers/pool.ts';
import { installFederation } from './federation/install-federation.ts';
import { installOps } from './ops/install-ops.ts';
import { installOpenApiCollector } from './ops/openapi.ts';
import type { StoredResult } from './results/stored-result.ts';
import { EventHub } from './events/event-hub.ts';
import { HOST_CHANNEL, jobChannel, roomChannel } from './events/channels.ts';
import { installEvents } from './http/install-events.ts';
import { swapPlugin, type PluginSwap } from './registry/plugin-swap.ts';
import type { ScaleService } from './scale/scale-service.ts';
import { StaticInputs } from './inputs/static-inputs.ts';
import { MemoryUploadStore } from './uploads/memory-upload-store.ts';
import type { UploadStore } from './uploads/upload-store.ts';
import { uploadRoutes } from './http/routes-uploads.ts';

export interface CreateAppOptions extends HostOptions {
  /** Mesh functions by name, registered in code. */
  meshFunctions?: Record<string, AnyFunction>;
}

/** What `app.vitrine` offers applications embedding the host. */
export interface VitrineHandle {
  /** Registers a function under `name` with its return type (and optional schema). */
  registerFunction(name: string, fn: AnyFunction, options?: RegisterFunctionOptions): FunctionEntry;
  /** Registers a function and a dynamic specimen backed by it, in one call. */
  registerSpecimen(options: RegisterSpecimenOptions, fn: AnyFunction): void;
  /** Rescans the specimens directory and reloads plugin bundles. */
  reload(): Promise<ReloadCounts>;
  /**
   * Swaps one plugin's bundle folder in (or out, when it is gone) without touching the
   * others, and publishes a `reload` event. Rejects when the bundle cannot be loaded.
   */
  reloadPlugin(name: string): Promise<PluginSwap>;
  readonly context: HostContext;
}

declare module 'fastify' {
  interface FastifyInstance {
    vitrine: VitrineHandle;
  }
}

export async function createApp(input: CreateAppOptions = {}): Promise<FastifyInstance> {
  const options = resolveHostOptions(input);
  const app = Fastify({
    logger: options.logLevel === false ? false : { level: options.logLevel, stream: options.logStream },
    bodyLimit: options.bodyLimitBytes,
    // Per-request lines would drown the cache and job logs (progress is polled every 0.5 s).
    logController: new LogController({ disableRequestLogging: true }),
    routerOptions: { maxParamLength: 1024 },
    forceCloseConnections: true,
    ajv: INPUT_VALIDATION,
    schemaErrorFormatter: toInputError,
    ...serverOptions(options),
  });
  installErrorHandlers(app);
  const stopWriteTimeout = installWriteTimeout(app.server, options.writeTimeoutSeconds);
  installHostCheck(app, resolveAllowedHosts(options.host, options.allowedHosts));
  installJsonBodyParsers(app);
  await installLoadShedding(app, options);

  const scheduler = new RoomScheduler({ threads: options.poolSize, perRoom: options.roomThreads });
  const pools = await createPools({ computeThreads: scheduler.capacity, warmComputeThreads: scheduler.warmThreads });
  const functions = new FunctionRegistry();
  const catalog = new SpecimenCatalog((id, kept, dropped) =>
    app.log.warn(`specimen id '${id}' from ${dropped.origin} is hidden by the ${kept.origin} specimen of the same id`),
  );
  const budget = new ResultBudget<StoredResult>(options.cacheMaxBytes, resultByteLength);
  const cache = new RoomCache<StoredResult>({ ttlSeconds: options.cacheTtlSeconds, budget });
  const pooled = new PooledInvoker(pools.compute, scheduler, { cancelGraceMs: options.cancelGraceMs });
  const invokers: InvokerSet = {
    bundle: pooled,
    inline: new InlineInvoker(),
  };
  const events = new EventHub();
  const resultIds = new ResultIds(pools.encode, budget);
  const results = new ResultService({
    cache,
    invokers,
    log: app.log,
    publish: (roomId, event) => events.publish(roomChannel(roomId), event),
    idOf: (result) => resultIds.of(result),
  });
  const jobStore = new JobStore({
    ttlSeconds: options.jobTtlSeconds,
    timeoutSeconds: options.jobTimeoutSeconds,
    maxMessages: options.maxJobMessages,
    maxFinished: options.maxFinishedJobs,
    maxRunning: options.maxJobs,
    budget,
    onChange: (job) => events.publish(jobChannel(job.id), { event: 'change', data: null }),
  });
  const jobs = new LocalJobs(jobStore, results, events);
  // A Redis service (loaded only when asked for, so a lone host never loads BullMQ).
  let scale: ScaleService | null = null;
  if (options.redis) {
    const { createScaleService } = await import('./scale/scale-service.ts');
    scale = await createScaleService({
      url: options.redis,
      hub: events,
      budget,
      local: { results, jobs, store: jobStore },
      functions,
      invoker: pooled,
      options,
      log: app.log,
    });
    const service = scale;
    resultIds.useRemote((id) => service.findResult(id));
  }

  const reloadHooks: AfterReloadHook[] = [];
  async function reload(): Promise<ReloadCounts> {
    let counts = await reloadSources(options, functions, catalog);
    for (const line of counts.problems) app.log.warn(line);
    for (const hook of reloadHooks) counts = { ...counts, ...(await hook(counts)) };
    events.publish(HOST_CHANNEL, { event: 'reload', data: { plugin: null } });
    await scale?.node?.announce();
    return counts;
  }

  const uploads: UploadStore | null = !options.uploads ? null : (scale?.uploads ?? new MemoryUploadStore(budget, options.uploadTtlSeconds));
  const ctx: HostContext = {
    options,
    uploads,
    staticInputs: new StaticInputs(),
    functions,
    catalog,
    results: scale?.results ?? results,
    jobs: scale?.jobs ?? jobs,
    local: { results, jobs: jobStore },
    json: new JsonResultEncoder(pools.encode, { maxJsonResultBytes: options.maxJsonResultBytes, budget }),
    resultIds,
    delivery: new DeliveryVariants(pools.encode, budget),
    invokers,
    events,
    reload,
    afterReload: (hook) => void reloadHooks.push(hook),
  };

  const handle: VitrineHandle = {
    registerFunction(name, fn, fnOptions) {
      const entry = toInlineEntry(name, fn, fnOptions);
      functions.register(entry, { replace: true });
      return entry;
    },
    registerSpecimen(specimen, fn) {
      const entry = handle.registerFunction(specimen.function_name ?? specimen.id, fn, specimen);
      catalog.addToSource('code', 'code', toCodeSpecimen(specimen, entry));
    },
    reload,
    async reloadPlugin(name) {
      if (!options.pluginsDir) throw new Error('this host serves no plugins directory');
      const swap = await swapPlugin({ functions, catalog, cache }, options.pluginsDir, name);
      for (const line of swap.problems) app.log.warn(line);
      await scale?.node?.announce();
      const { problems: _problems, ...data } = swap;
      events.publish(HOST_CHANNEL, { event: 'reload', data });
      return swap;
    },
    context: ctx,
  };
  app.decorate('vitrine', handle);
  for (const [name, fn] of Object.entries(input.meshFunctions ?? {})) handle.registerFunction(name, fn, { returnType: 'mesh' });

  await installOpenApiCollector(app);
  await installEvents(app, ctx, { maxStreams: options.maxEventStreams });
  const readiness = await installOps(app, ctx, scheduler);
  let loaded = false;
  let closing = false;
  readiness.add('plugins', () => (loaded ? null : 'plugins are still loading'));
  readiness.add('host', () => (closing ? 'the host is shutting down' : null));
  if (scale) readiness.add('redis', () => scale.notReady());
  app.addHook('preClose', async () => void (closing = true));
  await reload();
  loaded = true;

  await app.register(specimenRoutes, { ctx });
  await app.register(specimenDataRoutes, { ctx });
  await app.register(processingRoutes, { ctx });
  await app.register(jobRoutes, { ctx });
  await app.register(zarrRoutes, { ctx });
  await app.register(uploadRoutes, { ctx });
  await app.register(clientRoute);
  if (options.viewer) await app.register(viewerRoutes);
  await installFederation(app, ctx);

  app.addHook('onClose', async () => {
    stopWriteTimeout();
    uploads?.close();
    await scale?.close();
    jobs.close();
    results.abortAll();
    cache.close();
    await pools.destroy();
  });
  return app;
}
