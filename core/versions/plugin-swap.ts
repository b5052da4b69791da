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
import type { FunctionRegistry } from '../registry/function-registry.ts';
import { loadPluginBundle, type LoadedPlugin } from '../registry/manifest-loader.ts';
import { noChange, type VersionChange } from './plugin-versions.ts';
import type { PluginHome } from './reload-sources.ts';
import type { SpecimenCatalog } from '../registry/specimen-catalog.ts';

/** What a swap changed: the plugin's functions and specimen ids now (empty when removed). */
export interface PluginSwap {
  plugin: string;
  functions: string[];
  specimens: string[];
  removed: boolean;
  problems: string[];
  /** What came, went and was refused. */
  change: VersionChange;
}

export interface SwapTargets {
  functions: FunctionRegistry;
  catalog: SpecimenCatalog;
  cache: Pick<RoomCache<unknown>, 'deleteWhere'>;
  home: PluginHome;
}

/** Loads the folder into the kept versions; a refused bundle is recorded, then thrown. */
async function loadInto(home: PluginHome, dir: string, name: string, change: VersionChange): Promise<LoadedPlugin | null> {
  if (!existsSync(path.join(dir, 'manifest.json'))) {
    home.versions.remove(name, change);
    return null;
  }
  try {
    const loaded = await loadPluginBundle(dir, home.load);
    home.versions.accept(loaded, change);
    return home.versions.get(name)?.versions[0] ?? loaded;
  } catch (error) {
    home.versions.refuse(name, (error as Error).message, change);
    throw error;
  }
}

/**
 * Loads `pluginsDir/name` in place of the plugin's current version.
 * @throws when the bundle folder exists but cannot be loaded (the old version stays).
 */
export async function swapPlugin(targets: SwapTargets, pluginsDir: string, name: string): Promise<PluginSwap> {
  const change = noChange();
  const loaded = await loadInto(targets.home, path.join(pluginsDir, name), name, change);
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
  targets.home.versions.announce(change);
  const specimens = loaded?.specimens.map((s) => s.id) ?? [];
  return { plugin: name, functions: accepted.map((fn) => fn.name), specimens, removed: loaded === null, problems, change };
}
