/**
 * @module reload-sources
 * Reloading a host's own sources: rescans the specimens directory and reloads the plugin
 * bundles into the function registry and the catalog. A function name already taken (by an
 * earlier plugin or a function registered in code) is refused with a problem line naming the
 * plugin; the first registration wins.
 */
import type { ReloadResponse } from '../wire/wire-types.ts';
import { scanSpecimensDir } from '../catalog/specimen-scanner.ts';
import type { FunctionRegistry } from './function-registry.ts';
import { loadPluginBundles } from './manifest-loader.ts';
import type { SpecimenCatalog } from './specimen-catalog.ts';

/** What a reload found: the answer of `GET /api/specimens/reload`. */
export type ReloadCounts = ReloadResponse;

export interface SourceDirs {
  specimensDir: string | null;
  pluginsDir: string | null;
}

export async function reloadSources(dirs: SourceDirs, functions: FunctionRegistry, catalog: SpecimenCatalog): Promise<ReloadCounts> {
  const problems: string[] = [];
  let diskCount = 0;
  if (dirs.specimensDir) {
    const scan = await scanSpecimensDir(dirs.specimensDir);
    catalog.setSource('disk', 'disk', scan.records);
    diskCount = scan.records.length;
    problems.push(...scan.problems);
  }
  let pluginCount = 0;
  if (dirs.pluginsDir) {
    const loaded = await loadPluginBundles(dirs.pluginsDir);
    problems.push(...loaded.problems);
    functions.removeWhere((e) => e.source.kind === 'bundle');
    catalog.removeSourcesWithPrefix('plugin:');
    for (const plugin of loaded.plugins) {
      const accepted = plugin.functions.filter((f) => {
        if (!functions.has(f.name)) return true;
        problems.push(`plugin ${plugin.name}: function '${f.name}' is already registered; this one is ignored`);
        return false;
      });
      for (const f of accepted) functions.register(f);
      catalog.setSource(`plugin:${plugin.name}`, 'plugin', plugin.specimens);
      pluginCount++;
    }
  }
  return { count: diskCount, specimens: catalog.list().length, functions: functions.size, plugins: pluginCount, problems };
}
