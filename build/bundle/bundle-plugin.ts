/**
 * @module bundle-plugin
 * Bundles one plugin with esbuild into memory; failures become VITRINE_PLUGIN_401 diagnostics
 * pointing at esbuild's own locations.
 */
import path from 'node:path';
import { build, type Message } from 'esbuild';
import { createDiagnostic, type BuildDiagnostic } from '../diagnostics/build-diagnostic.ts';
import type { PluginSource } from '../plugins/find-plugins.ts';
import { pluginEsbuildOptions } from './esbuild-options.ts';

function toDiagnostic(message: Message, plugin: PluginSource): BuildDiagnostic {
  const location = message.location
    ? { file: path.resolve(plugin.dir, message.location.file), line: message.location.line, column: message.location.column + 1 }
    : null;
  return createDiagnostic('VITRINE_PLUGIN_401', location, message.text, { plugin: plugin.name });
}

/** Turns esbuild's failure into diagnostics (anything else is rethrown); returns null. */
export function reportBundleFailure(error: unknown, plugin: PluginSource, diagnostics: BuildDiagnostic[]): null {
  const errors = (error as { errors?: Message[] }).errors;
  if (!errors || errors.length === 0) throw error;
  diagnostics.push(...errors.map((message) => toDiagnostic(message, plugin)));
  return null;
}

/** The bundle's bytes, or null after pushing diagnostics. */
export async function bundlePlugin(plugin: PluginSource, outDir: string, diagnostics: BuildDiagnostic[]): Promise<Buffer | null> {
  try {
    const result = await build(pluginEsbuildOptions(plugin.entry, outDir));
    const file = result.outputFiles[0];
    return file ? Buffer.from(file.contents) : null;
  } catch (error) {
    return reportBundleFailure(error, plugin, diagnostics);
  }
}
