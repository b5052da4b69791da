/**
 * @module build-plugins
 * The build itself, without the command line: finds the plugins of a source folder, reads
 * their signatures with one ts-morph Project (and type-checks them with it), checks names across plugins, bundles them with
 * esbuild (in parallel), and returns every plugin's bundle folder in memory plus every
 * diagnostic. Nothing is written here (see output/write-output.ts and output/check-output.ts).
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { createDiagnostic, type BuildDiagnostic } from './diagnostics/build-diagnostic.ts';
import { bundlePlugin } from './bundle/bundle-plugin.ts';
import { BUNDLE_FILE } from './bundle/esbuild-options.ts';
import { renderManifest, toManifest } from './manifest/write-manifest.ts';
import type { PluginOutput } from './output/plugin-output.ts';
import { analyzePlugin, type PluginAnalysis } from './plugins/analyze-plugin.ts';
import { findPlugins, PLUGIN_NAME_PATTERN, type PluginSource } from './plugins/find-plugins.ts';
import { createBuildProject } from './project/create-project.ts';
import { collectTypeErrors } from './diagnostics/type-errors.ts';
import { createParamParser } from './schema/create-param-parser.ts';

export interface BuildResult {
  /** Built plugins in name order (empty for the failing ones' outputs when there are errors). */
  plugins: PluginOutput[];
  diagnostics: BuildDiagnostic[];
}

/** Reads the signatures and specimens of `plugins` (no bundling). */
export function analyzePlugins(plugins: PluginSource[], diagnostics: BuildDiagnostic[]): PluginAnalysis[] {
  const project = createBuildProject();
  for (const plugin of plugins) project.addSourceFileAtPath(plugin.entry);
  const chain = createParamParser();
  const analyses = plugins.map((plugin) => analyzePlugin(project, plugin, chain, diagnostics));
  checkUniqueNames(analyses, diagnostics);
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
        diagnostics.push(createDiagnostic('VITRINE_FUNCTION_201', location, `plugins '${owner}' and '${plugin.name}' both export a specimen function named '${fn.name}'; registered names must be unique`, { plugin: plugin.name, functionName: fn.name }));
      }
    }
    for (const specimen of specimens) {
      const owner = specimenOwners.get(specimen.id);
      if (owner === undefined) specimenOwners.set(specimen.id, plugin.name);
      else diagnostics.push(createDiagnostic('VITRINE_SPECIMEN_302', specimenLocations.get(specimen.id) ?? null, `plugins '${owner}' and '${plugin.name}' both declare specimen id '${specimen.id}'`, { plugin: plugin.name, functionName: specimen.function_name }));
    }
  }
}

/** Builds every plugin folder of `srcDir` for the output directory `outDir`. */
export async function buildPlugins(srcDir: string, outDir: string): Promise<BuildResult> {
  const diagnostics: BuildDiagnostic[] = [];
  const found = findPlugins(srcDir);
  const plugins = found.filter((plugin) => {
    if (PLUGIN_NAME_PATTERN.test(plugin.name)) return true;
    diagnostics.push(createDiagnostic('VITRINE_PLUGIN_400', { file: plugin.entry, line: 1, column: 1 }, `plugin folder '${plugin.name}' must use letters, digits, '.', '_' and '-', starting with a letter or digit`, { plugin: plugin.name }));
    return false;
  });
  const analyses = analyzePlugins(plugins, diagnostics);
  const bundles = await Promise.all(plugins.map((plugin) => bundlePlugin(plugin, path.join(outDir, plugin.name), diagnostics)));
  return { plugins: analyses.map((analysis, index) => toPluginOutput(analysis, bundles[index] ?? null)), diagnostics };
}

/** A plugin's bundle folder in memory: bundle, manifest and thumbnails. */
export function toPluginOutput(analysis: PluginAnalysis, bundle: Buffer | null): PluginOutput {
  const files = new Map<string, Buffer>();
  files.set(BUNDLE_FILE, bundle ?? Buffer.alloc(0));
  files.set('manifest.json', Buffer.from(renderManifest(toManifest(analysis.plugin.name, analysis.functions, analysis.specimens))));
  for (const thumbnail of analysis.thumbnails) files.set(thumbnail.bundlePath, readFileSync(thumbnail.source));
  return { name: analysis.plugin.name, files, functionCount: analysis.functions.length, specimenCount: analysis.specimens.length, notes: analysis.notes };
}
