/**
 * @module vitrine-handle
 * `app.vitrine`: what an application embedding the host can do with it beyond HTTP: register
 * functions and specimens in code, reload everything, swap one plugin, publish a host event,
 * and read the figures its routes and metrics read (cache statistics, held bytes, lookups,
 * variants made). It names each of these; the services behind them stay private.
 */
import type { CacheStats } from '../wire/wire-types.ts';
import type { RoomCache } from '../cache/room-cache.ts';
import type { SpecimenRecord } from '../catalog/specimen-record.ts';
import { HOST_CHANNEL } from '../events/channels.ts';
import type { HostEvent } from '../events/event-hub.ts';
import type { HostContext } from '../host-context.ts';
import type { ResolvedHostOptions } from '../options.ts';
import type { StoredResult } from '../results/stored-result.ts';
import type { ResultFigures } from '../serving/result-source.ts';
import { toCodeSpecimen, toInlineEntry, type AnyFunction, type RegisterFunctionOptions, type RegisterSpecimenOptions } from '../registry/code-registration.ts';
import type { FunctionEntry } from '../registry/function-entry.ts';
import { swapPlugin, type PluginSwap } from '../versions/plugin-swap.ts';
import { describeChange, noChange, warnsOf } from '../versions/plugin-versions.ts';
import type { ReloadCounts } from '../versions/reload-sources.ts';
import type { LeftOutPlugin } from '../python/python-runtime.ts';

export interface VitrineHandle {
  /** The host's options, resolved. */
  readonly options: ResolvedHostOptions;
  /** Registers a function under `name` with its return type (and optional schema). */
  registerFunction(name: string, fn: AnyFunction, options?: RegisterFunctionOptions): FunctionEntry;
  /** Registers a function and a dynamic specimen backed by it, in one call. */
  registerSpecimen(options: RegisterSpecimenOptions, fn: AnyFunction): void;
  /** Lists a specimen record with the code-registered specimens (e.g. a loaded function shown as a dynamic specimen). */
  showSpecimen(record: SpecimenRecord): void;
  /** The registered function named `name` (a plugin's, a relayed worker's or one registered in code). */
  functionEntry(name: string): FunctionEntry | undefined;
  /** Rescans the specimens directory and reloads plugin bundles. */
  reload(): Promise<ReloadCounts>;
  /**
   * Swaps one plugin's bundle folder in (or out, when it is gone) without touching the
   * others, and publishes a `reload` event. Rejects when the bundle cannot be loaded.
   */
  reloadPlugin(name: string): Promise<PluginSwap>;
  /** Publishes an event on the host stream (`GET /api/events`). */
  publishHostEvent(event: HostEvent): void;
  /** How many listeners an event channel has here (an open stream holds one). */
  eventListeners(channel: string): number;
  /** The room cache's statistics, as `GET /api/processing/cache/stats` answers them. */
  cacheStats(): Promise<CacheStats>;
  /** Room entries and bytes held, for metrics; read without waiting. */
  resultFigures(): ResultFigures;
  /** Room-cache lookups since start (live counters): hits, misses, and misses that joined a running computation. */
  cacheAccessCounts(): Readonly<{ hit: number; miss: number; shared: number }>;
  /** Delivery variants (shaped, encoded, compressed) made since start. */
  variantsMade(): number;
}

declare module 'fastify' {
  interface FastifyInstance {
    vitrine: VitrineHandle;
  }
}

export function createVitrineHandle(
  ctx: HostContext,
  deps: {
    cache: RoomCache<StoredResult>;
    warn: (line: string) => void;
    info: (line: string) => void;
    /** Settles what a swap changed (Python imports, a Redis service told): the plugins it left out. */
    afterSwap: () => Promise<LeftOutPlugin[]>;
  },
): VitrineHandle {
  const { functions, catalog, options, events } = ctx;
  const handle: VitrineHandle = {
    options,
    registerFunction(name, fn, fnOptions) {
      const entry = toInlineEntry(name, fn, fnOptions);
      functions.register(entry, { replace: true });
      return entry;
    },
    registerSpecimen(specimen, fn) {
      const entry = handle.registerFunction(specimen.function_name ?? specimen.id, fn, specimen);
      handle.showSpecimen(toCodeSpecimen(specimen, entry));
    },
    showSpecimen: (record) => catalog.addToSource('code', 'code', record),
    functionEntry: (name) => functions.get(name),
    reload: () => ctx.reload(),
    async reloadPlugin(name) {
      if (!options.pluginsDir) throw new Error('this host serves no plugins directory');
      const swapped = await swapPlugin({ functions, catalog, cache: deps.cache, home: ctx.plugins }, options.pluginsDir, name).catch((error: unknown) => {
        const line = describeChange({ ...noChange(), refused: [{ plugin: name, problem: (error as Error).message }] });
        if (line) deps.warn(line);
        throw error;
      });
      const line = describeChange(swapped.change);
      if (line) (warnsOf(swapped.change) ? deps.warn : deps.info)(line);
      const leftOut = await deps.afterSwap();
      // A Python plugin whose import failed has left again: nothing it brought is served.
      const out = leftOut.some((p) => p.plugin === name);
      const swap: PluginSwap = {
        ...swapped,
        functions: out ? [] : swapped.functions,
        specimens: out ? [] : swapped.specimens,
        problems: [...swapped.problems, ...leftOut.map((p) => p.line)],
      };
      for (const line of swap.problems) deps.warn(line);
      const { problems: _problems, change: _change, ...data } = swap;
      handle.publishHostEvent({ event: 'reload', data });
      return swap;
    },
    publishHostEvent: (event) => events.publish(HOST_CHANNEL, event),
    eventListeners: (channel) => events.listenerCount(channel),
    cacheStats: () => ctx.results.stats(),
    resultFigures: () => ctx.results.figures(),
    cacheAccessCounts: () => ctx.results.accessCounts,
    variantsMade: () => ctx.delivery.made,
  };
  return handle;
}
