/**
 * @module pinned-versions
 * A layer source that names `version` is computed by that version of its plugin while the host
 * keeps it: its functions are looked up in the kept version, not the serving one. A version
 * no longer kept is a 409 naming the plugin and the version, when the layer must compute, and
 * so is one of a plugin the host no longer has at all (taken out of the plugins folder).
 */
import type { LayerSource } from '../../wire/scene-types.ts';
import { createHostError } from '../../errors.ts';
import type { FunctionEntry } from '../../registry/function-entry.ts';
import type { LoadedPlugin } from '../../registry/manifest-loader.ts';
import type { PluginVersions } from '../../versions/plugin-versions.ts';
import type { FunctionLookup } from '../../registry/specimen-functions.ts';
import type { SpecimenCatalog } from '../../registry/specimen-catalog.ts';

/** What finding a pinned version reads. */
export interface PinDeps {
  functions: FunctionLookup;
  catalog: Pick<SpecimenCatalog, 'get'>;
  plugins?: { versions: PluginVersions };
}

/** The plugin that has (or had) function `name`: the serving one's, else a kept version's, else one that was taken out. */
function pluginOf(deps: PinDeps, name: string): string | null {
  const serving = deps.functions.get(name);
  if (serving?.plugin) return serving.plugin;
  return deps.plugins?.versions.pluginOf(name) ?? null;
}

/**
 * The kept version `source` pins, or null when it pins none. `madeBy`: the plugin that made the
 * layer's result as its record says (a snapshot's provenance), for a plugin this host never had.
 * @throws SPC_ERR_PLUGIN_VERSION_GONE
 */
export function pinnedVersion(deps: PinDeps, source: LayerSource, madeBy?: string): LoadedPlugin | null {
  if (source.version === undefined) return null;
  const name = source.function ?? (source.specimen !== undefined ? deps.catalog.get(source.specimen)?.function_name : null);
  const plugin = (name ? pluginOf(deps, name) : null) ?? madeBy ?? null;
  if (!plugin) {
    if (!name) return null;
    throw createHostError('SPC_ERR_FUNCTION_NOT_FOUND', name);
  }
  const kept = deps.plugins?.versions.find(plugin, source.version);
  if (!kept) throw createHostError('SPC_ERR_PLUGIN_VERSION_GONE', plugin, source.version);
  return kept;
}

/** The functions as `source` sees them: a pinned version's first, then the serving ones. */
export function functionsFor(deps: PinDeps, source: LayerSource): FunctionLookup {
  const kept = pinnedVersion(deps, source);
  if (!kept) return deps.functions;
  const own = new Map<string, FunctionEntry>(kept.functions.map((f) => [f.name, f]));
  return { get: (name) => own.get(name) ?? deps.functions.get(name) };
}
