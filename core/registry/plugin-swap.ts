/**
 * @module plugin-swap
 * Replaces one plugin in a running host with what its bundle folder holds now (or removes it
 * when the folder is gone): its functions and specimens are swapped in one step on the event
 * loop, and only its own room cache entries are dropped. Other plugins, their cache entries
 * and open connections are untouched; a computation of the old version that is still running
 * finishes with the code it started with (its cache key carries the bundle version).
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import type { RoomCache } from '../cache/room-cache.ts';
import type { FunctionRegistry } from './function-registry.ts';
import { loadPluginBundle } from './manifest-loader.ts';
import type { SpecimenCatalog } from './specimen-catalog.ts';

/** What a swap changed: the plugin's functions and specimen ids now (empty when removed). */
export interface PluginSwap {
  plugin: string;
  functions: string[];
  specimens: string[];
  removed: boolean;
  problems: string[];
}

export interface SwapTargets {
  functions: FunctionRegistry;
  catalog: SpecimenCatalog;
  cache: Pick<RoomCache<unknown>, 'deleteWhere'>;
}

/**
 * Loads `pluginsDir/name` in place of the plugin's current version.
 * @throws when the bundle folder exists but cannot be loaded (the old version stays).
 */
export async function swapPlugin(targets: SwapTargets, pluginsDir: string, name: string): Promise<PluginSwap> {
  const dir = path.join(pluginsDir, name);
  const loaded = existsSync(path.join(dir, 'manifest.json')) ? await loadPluginBundle(dir) : null;
  const { functions, catalog, cache } = targets;
  const ours = (entry: { source: { kind: string }; plugin: string | null }) => entry.source.kind === 'bundle' && entry.plugin === name;
  const problems: string[] = [];
  const accepted = (loaded?.functions ?? []).filter((fn) => {
    const current = functions.get(fn.name);
    if (!current || ours(current)) return true;
    problems.push(`plugin ${name}: function '${fn.name}' is already registered; this one is ignored`);
    return false;
  });
  const changed = new Set(functions.list().filter(ours).map((entry) => entry.name));
  functions.removeWhere(ours);
  for (const fn of accepted) {
    functions.register(fn);
    changed.add(fn.name);
  }
  if (loaded) catalog.setSource(`plugin:${name}`, 'plugin', loaded.specimens);
  else catalog.removeSource(`plugin:${name}`);
  cache.deleteWhere((entry) => changed.has(entry.functionName));
  return { plugin: name, functions: accepted.map((fn) => fn.name), specimens: loaded?.specimens.map((s) => s.id) ?? [], removed: loaded === null, problems };
}
