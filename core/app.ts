/**
 * @module app
 * `createApp(options)`: builds a host and returns the fastify instance without listening
 * (server.ts listens). It reads as the list of what a host is made of: fastify with its
 * guards, the compute assembly (shared with `vitrine worker`), the result and job stack, the
 * services the routes share, events, operations, the plugins, the routes and federation.
 *
 * @example
 * const app = await createApp({ specimensDir: null, pluginsDir: null, meshFunctions: { cube } });
 * const res = await app.inject({ method: 'POST', url: '/api/processing/invoke', payload: { function_name: 'cube' } });
 */
import type { FastifyInstance } from 'fastify';
import { DeliveryVariants } from './delivery/delivery-variants.ts';
import { HOST_CHANNEL } from './events/channels.ts';
import { EventHub } from './events/event-hub.ts';
import { installFederation } from './federation/install-federation.ts';
import type { AfterReloadHook, HostContext } from './host-context.ts';
import { createFastify } from './http/create-fastify.ts';
import { installEvents } from './http/install-events.ts';
import { installRoutes } from './http/install-routes.ts';
import { StaticInputs } from './inputs/static-inputs.ts';
import { FileParser } from './workers/file-parser.ts';
import { assembleCompute } from './assembly/compute-assembly.ts';
import { installOps } from './ops/install-ops.ts';
import { installOpenApiCollector } from './ops/openapi.ts';
import { resolveHostOptions, type HostOptions } from './options.ts';
import type { AnyFunction } from './registry/code-registration.ts';
import type { ReloadCounts } from './registry/reload-sources.ts';
import { SpecimenCatalog } from './registry/specimen-catalog.ts';
import { createVitrineHandle } from './registry/vitrine-handle.ts';
import { assembleResults } from './assembly/assemble-results.ts';
import { JsonResultEncoder } from './serving/json-encoder.ts';
import { installPublishedRefresh } from './http/published-refresh.ts';
import { assembleWorkspace } from './assembly/assemble-workspace.ts';
import { VolumePyramids } from './zarr/volume-pyramids.ts';

export type { VitrineHandle } from './registry/vitrine-handle.ts';

export interface CreateAppOptions extends HostOptions {
  /** Mesh functions by name, registered in code. */
  meshFunctions?: Record<string, AnyFunction>;
}

export async function createApp(input: CreateAppOptions = {}): Promise<FastifyInstance> {
  const options = resolveHostOptions(input);
  const app = await createFastify(options);
  const compute = await assembleCompute(options, { info: (line) => app.log.info(line), warn: (line) => app.log.warn(line) });
  const catalog = new SpecimenCatalog((id, kept, dropped) =>
    app.log.warn(`specimen id '${id}' from ${dropped.origin} is hidden by the ${kept.origin} specimen of the same id`),
  );
  const events = new EventHub();
  const stack = await assembleResults({ options, compute, catalog, events, log: app.log });
  const workspace = await assembleWorkspace({ options, results: stack.results, budget: stack.budget, catalog, events, scale: stack.scale, log: app.log });
  // After a reload or a plugin swap: Python processes import what changed, and a Redis service
  // learns what this host now runs.
  const announce = async () => {
    compute.python.sync({ functions: compute.functions, catalog });
    await stack.scale?.node?.announce();
  };

  const reloadHooks: AfterReloadHook[] = [];
  async function reload(): Promise<ReloadCounts> {
    let counts = await compute.reload(catalog);
    for (const line of counts.problems) app.log.warn(line);
    for (const hook of reloadHooks) counts = { ...counts, ...(await hook(counts)) };
    events.publish(HOST_CHANNEL, { event: 'reload', data: { plugin: null } });
    await announce();
    return counts;
  }

  const files = new FileParser(compute.pools.encode);
  const ctx: HostContext = {
    options,
    uploads: stack.uploads,
    files,
    staticInputs: new StaticInputs(files.parse),
    published: workspace.published,
    rooms: workspace.rooms,
    functions: compute.functions,
    catalog,
    results: stack.results,
    jobs: stack.jobs,
    local: stack.local,
    json: new JsonResultEncoder(compute.pools.encode, { maxJsonResultBytes: options.maxJsonResultBytes, budget: stack.budget }),
    resultIds: stack.resultIds,
    delivery: new DeliveryVariants(compute.pools.encode, stack.budget),
    pyramids: new VolumePyramids(compute.pools.encode, stack.budget),
    invokers: compute.invokers,
    events,
    reload,
    afterReload: (hook) => void reloadHooks.push(hook),
  };
  const handle = createVitrineHandle(ctx, { cache: stack.cache, warn: (line) => app.log.warn(line), announce });
  app.decorate('vitrine', handle);
  for (const [name, fn] of Object.entries(input.meshFunctions ?? {})) handle.registerFunction(name, fn, { returnType: 'mesh' });

  await installOpenApiCollector(app);
  await installEvents(app, ctx, { maxStreams: options.maxEventStreams });
  const readiness = await installOps(app, ctx, compute.scheduler);
  let loaded = false;
  let closing = false;
  readiness.add('plugins', () => (loaded ? null : 'plugins are still loading'));
  readiness.add('host', () => (closing ? 'the host is shutting down' : null));
  const scale = stack.scale;
  if (scale) readiness.add('redis', () => scale.notReady());
  app.addHook('preClose', async () => void (closing = true));
  await reload();
  loaded = true;

  installPublishedRefresh(app, catalog, workspace.published);
  await installRoutes(app, ctx);
  await installFederation(app, ctx, scale?.relay ?? null);
  app.addHook('onClose', async () => {
    workspace.close();
    await stack.close();
    await compute.close();
  });
  return app;
}
