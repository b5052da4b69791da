/**
 * @module build-one-plugin
 * Builds a single plugin folder in memory, as `vitrine build` builds each plugin of SRC: the
 * manifest's functions and specimens and the bundle's bytes, with every diagnostic. Used by
 * `vitrine/testing`.
 */
import path from 'node:path';
import type { ManifestFunction, ManifestSpecimen } from '../core/registry/manifest-types.ts';
import { analyzePlugins } from './build-plugins.ts';
import { bundlePlugin } from './bundle/bundle-plugin.ts';
import type { BuildDiagnostic } from './diagnostics/build-diagnostic.ts';

export interface OnePluginBuild {
  name: string;
  functions: ManifestFunction[];
  specimens: ManifestSpecimen[];
  /** The bundle (null when bundling failed). */
  bundle: Buffer | null;
  diagnostics: BuildDiagnostic[];
}

/** Builds the plugin whose `index.ts` is in `pluginDir`. */
export async function buildPluginInMemory(pluginDir: string): Promise<OnePluginBuild> {
  const plugin = { name: path.basename(pluginDir), dir: pluginDir, entry: path.join(pluginDir, 'index.ts'), runtime: 'node' as const };
  const diagnostics: BuildDiagnostic[] = [];
  const [analysis] = analyzePlugins([plugin], diagnostics);
  const bundle = await bundlePlugin(plugin, path.join(pluginDir, '.vitrine-test'), diagnostics);
  return { name: plugin.name, functions: analysis?.functions ?? [], specimens: analysis?.specimens ?? [], bundle, diagnostics };
}
