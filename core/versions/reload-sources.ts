/**
 * @module reload-sources
 * Reloading a host's own sources: rescans the specimens directory and reloads the plugin
 * bundles into the kept versions (plugin-versions.ts), then serves each plugin's newest in
 * the function registry and the catalog. A bundle that fails its checks leaves the version
 * it would replace serving. A function name already taken (by an earlier plugin or a
 * function registered in code) is refused with a problem line naming the plugin; the first
 * registration wins.
 */
import type { ReloadResponse } from '../wire/wire-types.ts';
import { scanSpecimensDir } from '../catalog/specimen-scanner.ts';
import type { FunctionRegistry } from '../registry/function-registry.ts';
import { loadPluginBundles } from '../registry/manifest-loader.ts';
import { noChange, type PluginVersions, type VersionChange } from './plugin-versions.ts';
import type { SpecimenCatalog } from '../registry/specimen-catalog.ts';
import type { VersionHome } from './version-sharing.ts';

/** What a reload found: the answer of `GET /api/specimens/reload`. */
export type ReloadCounts = ReloadResponse;

export interface SourceDirs {
  specimensDir: string | null;
  pluginsDir: string | null;
}

/** Where plugins are kept and how they are loaded. */
export type PluginHome = VersionHome;

/** Reads every bundle folder into the kept versions; returns the problem lines and what changed. */
export async function reloadPlugins(pluginsDir: string, home: PluginHome): Promise<{ problems: string[]; change: VersionChange }> {
  const loaded = await loadPluginBundles(pluginsDir, home.load);
  const change = noChange();
  const { versions } = home;
  for (const plugin of loaded.plugins) versions.accept(plugin, change);
  for (const failed of loaded.failed) versions.refuse(failed.name, failed.problem, change);
  const problems = [...loaded.problems];
  const loadedNames = new Set([...loaded.plugins.map((p) => p.name), ...loaded.failed.map((f) => f.name)]);
  for (const name of versions.names()) {
    if (!loaded.folders.includes(name)) versions.remove(name, change);
    else if (!loadedNames.has(name) && versions.get(name)?.versions.length) {
      // A folder emptied to be copied into again: what served keeps serving until a manifest is back.
      const problem = 'manifest.json is missing (not built, or still being copied): the kept version serves';
      versions.refuse(name, problem, change);
      // Said once, for what it means here: the generic line of a folder without a manifest gives way.
      const generic = problems.findIndex((line) => line.startsWith(`plugin folder ${name}: no manifest.json`));
      if (generic >= 0) problems.splice(generic, 1);
      problems.push(`plugin ${name}: ${problem}`);
    }
  }
  return { problems, change };
}

/** Serves each plugin's newest kept version; returns the problem lines of names already taken. */
export function serveNewest(versions: PluginVersions, functions: FunctionRegistry, catalog: SpecimenCatalog): { plugins: number; problems: string[] } {
  const problems: string[] = [];
  functions.removeWhere((e) => e.source.kind === 'bundle');
  catalog.removeSourcesWithPrefix('plugin:');
  const serving = versions.serving();
  for (const plugin of serving) {
    const accepted = plugin.functions.filter((f) => {
      if (!functions.has(f.name)) return true;
      problems.push(`plugin ${plugin.name}: function '${f.name}' is already registered; this one is ignored`);
      return false;
    });
    for (const f of accepted) functions.register(f);
    catalog.setSource(`plugin:${plugin.name}`, 'plugin', plugin.specimens);
  }
  return { plugins: serving.length, problems };
}

export async function reloadSources(
  dirs: SourceDirs,
  functions: FunctionRegistry,
  catalog: SpecimenCatalog,
  home: PluginHome,
): Promise<ReloadCounts & { change: VersionChange }> {
  const problems: string[] = [];
  let diskCount = 0;
  if (dirs.specimensDir) {
    const scan = await scanSpecimensDir(dirs.specimensDir);
    catalog.setSource('disk', 'disk', scan.records);
    diskCount = scan.records.length;
    problems.push(...scan.problems);
  }
  let pluginCount = 0;
  let change = noChange();
  if (dirs.pluginsDir) {
    const reloaded = await reloadPlugins(dirs.pluginsDir, home);
    change = reloaded.change;
    problems.push(...reloaded.problems);
    const served = serveNewest(home.versions, functions, catalog);
    problems.push(...served.problems);
    pluginCount = served.plugins;
    home.versions.announce(change);
  }
  const downgraded = change.downgraded.map(({ plugin, from, to }) => ({ plugin, from, to }));
  return { count: diskCount, specimens: catalog.list().length, functions: functions.size, plugins: pluginCount, problems, downgraded, change };
}
