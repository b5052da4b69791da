/**
 * @module build-plugins
 * The build itself, without the command line: finds the plugins of a source folder, reads
 * the TypeScript ones' signatures with one ts-morph Project (and type-checks them with it; Node's
 * types in it only when they use them, project/plugin-project.ts) and
 * the Python ones' with one run of a Python interpreter (build/python/), checks names across
 * plugins, bundles the TypeScript ones with esbuild (in parallel; a Python plugin's bundle is
 * its own files), and returns every plugin's bundle folder in memory plus every diagnostic.
 * Nothing is written here (see output/write-output.ts and output/check-output.ts).
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { createDiagnostic, type BuildDiagnostic } from './diagnostics/build-diagnostic.ts';
import { bundlePlugin } from './bundle/bundle-plugin.ts';
import { BUNDLE_FILE } from './bundle/esbuild-options.ts';
import { statedVersion } from './manifest/plugin-version.ts';
import { renderManifest, toManifest } from './manifest/write-manifest.ts';
import type { PluginOutput } from './output/plugin-output.ts';
import { analyzePlugin, type PluginAnalysis } from './plugins/analyze-plugin.ts';
import { checkPluginFolder } from './plugins/check-plugin-folder.ts';
import { findPlugins, type PluginSource } from './plugins/find-plugins.ts';
import { createPluginProject } from './project/plugin-project.ts';
import { collectTypeErrors } from './diagnostics/type-errors.ts';
import { analyzePythonPlugins } from './python/analyze-python-plugins.ts';
import { collectPythonFiles } from './python/python-bundle-files.ts';
import { resolvePython } from './python/python-interpreter.ts';
import { createParamParser } from './schema/create-param-parser.ts';

export interface BuildOptions {
  /** The interpreter that reads Python plugins. @defaultValue `VITRINE_PYTHON`, else `python3` */
  python?: string;
}

export interface BuildResult {
  /** Built plugins in name order (empty for the failing ones' outputs when there are errors). */
  plugins: PluginOutput[];
  diagnostics: BuildDiagnostic[];
}

/**
 * Reads the signatures and specimens of `plugins` (TypeScript ones; no bundling). Names are
 * checked across them and `others`, the build's Python plugins, in plugin name order.
 */
export function analyzePlugins(plugins: PluginSource[], diagnostics: BuildDiagnostic[], others: PluginAnalysis[] = []): PluginAnalysis[] {
  if (plugins.length === 0) {
    checkUniqueNames(others, diagnostics);
    return [];
  }
  const project = createPluginProject(plugins);
  const chain = createParamParser();
  const analyses = plugins.map((plugin) => analyzePlugin(project, plugin, chain, diagnostics));
  checkUniqueNames([...analyses, ...others].sort((a, b) => (a.plugin.name < b.plugin.name ? -1 : a.plugin.name > b.plugin.name ? 1 : 0)), diagnostics);
  collectTypeErrors(project, plugins, diagnostics);
  return analyses;
}

/** Function names and specimen ids share one host: both must be unique across plugins. */
export function checkUniqueNames(analyses: PluginAnalysis[], diagnostics: BuildDiagnostic[]): void {
  const functionOwners = new Map<string, string>();
  const specimenOwners = new Map<string, string>();
  for (const { plugin, functions, specimens, specimenLocations } of analyses) {
    for (const fn of functions) {
      const owner = functionOwners.get(fn.name);
      if (owner === undefined) functionOwners.set(fn.name, plugin.name);
      else {
        const location = { file: path.join(plugin.dir, ...fn.source.file.split('/')), line: fn.source.line, column: 1 };
        diagnostics.push(
          createDiagnostic(
            'VITRINE_FUNCTION_201',
            location,
            `plugins '${owner}' and '${plugin.name}' both export a specimen function named '${fn.name}'; registered names must be unique`,
            { plugin: plugin.name, functionName: fn.name },
          ),
        );
      }
    }
    for (const specimen of specimens) {
      const owner = specimenOwners.get(specimen.id);
      if (owner === undefined) specimenOwners.set(specimen.id, plugin.name);
      else
        diagnostics.push(
          createDiagnostic(
            'VITRINE_SPECIMEN_302',
            specimenLocations.get(specimen.id) ?? null,
            `plugins '${owner}' and '${plugin.name}' both declare specimen id '${specimen.id}'`,
            { plugin: plugin.name, functionName: specimen.function_name },
          ),
        );
    }
  }
}

/** Builds every plugin folder of `srcDir` for the output directory `outDir`. */
export async function buildPlugins(srcDir: string, outDir: string, options: BuildOptions = {}): Promise<BuildResult> {
  const diagnostics: BuildDiagnostic[] = [];
  const plugins = findPlugins(srcDir).filter((plugin) => checkPluginFolder(plugin, diagnostics));
  const node = plugins.filter((plugin) => plugin.runtime === 'node');
  const python = await analyzePythonPlugins(plugins.filter((plugin) => plugin.runtime === 'python'), resolvePython(options.python), diagnostics);
  const analyses = analyzePlugins(node, diagnostics, python);
  const bundles = await Promise.all(node.map((plugin) => bundlePlugin(plugin, path.join(outDir, plugin.name), diagnostics)));
  const outputs = new Map<string, PluginOutput>();
  analyses.forEach((analysis, index) => outputs.set(analysis.plugin.name, toPluginOutput(analysis, bundles[index] ?? null)));
  for (const analysis of python) outputs.set(analysis.plugin.name, toPluginOutput(analysis, null, collectPythonFiles(analysis.plugin.dir)));
  return { plugins: plugins.map((plugin) => outputs.get(plugin.name)!), diagnostics };
}

/**
 * A plugin's bundle folder in memory: the code (a TypeScript plugin's esbuild bundle, or a
 * Python plugin's own files), the manifest and the thumbnails.
 */
export function toPluginOutput(analysis: PluginAnalysis, bundle: Buffer | null, pluginFiles?: Map<string, Buffer>): PluginOutput {
  const { runtime } = analysis.plugin;
  const files = new Map<string, Buffer>(pluginFiles);
  if (runtime === 'node') files.set(BUNDLE_FILE, bundle ?? Buffer.alloc(0));
  for (const thumbnail of analysis.thumbnails) files.set(thumbnail.bundlePath, readFileSync(thumbnail.source));
  const { version } = statedVersion(analysis.plugin);
  const manifest = toManifest(analysis.plugin.name, analysis.functions, analysis.specimens, { runtime, version, files });
  files.set('manifest.json', Buffer.from(renderManifest(manifest)));
  const { notes, warnings } = analysis;
  return { name: analysis.plugin.name, files, functionCount: analysis.functions.length, specimenCount: analysis.specimens.length, notes, warnings };
}
