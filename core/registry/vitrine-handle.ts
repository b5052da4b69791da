/**
 * @module vitrine-handle
 * `app.vitrine`: what an application embedding the host can do with it beyond HTTP: register
 * functions and specimens in code, reload everything, swap one plugin, and reach the services
 * the routes share.
 */
import type { RoomCache } from '../cache/room-cache.ts';
import { HOST_CHANNEL } from '../events/channels.ts';
import type { HostContext } from '../host-context.ts';
import type { StoredResult } from '../results/stored-result.ts';
import { toCodeSpecimen, toInlineEntry, type AnyFunction, type RegisterFunctionOptions, type RegisterSpecimenOptions } from './code-registration.ts';
import type { FunctionEntry } from './function-entry.ts';
import { swapPlugin, type PluginSwap } from './plugin-swap.ts';
import type { ReloadCounts } from './reload-sources.ts';

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

export function createVitrineHandle(
  ctx: HostContext,
  deps: { cache: RoomCache<StoredResult>; warn: (line: string) => void; announce: () => Promise<void> },
): VitrineHandle {
  const { functions, catalog, options, events } = ctx;
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
    reload: () => ctx.reload(),
    async reloadPlugin(name) {
      if (!options.pluginsDir) throw new Error('this host serves no plugins directory');
      const swap = await swapPlugin({ functions, catalog, cache: deps.cache }, options.pluginsDir, name);
      for (const line of swap.problems) deps.warn(line);
      await deps.announce();
      const { problems: _problems, ...data } = swap;
      events.publish(HOST_CHANNEL, { event: 'reload', data });
      return swap;
    },
    context: ctx,
  };
  return handle;
}
