/**
 * @module find-plugins
 * The plugin folders of SRC: each direct subfolder holding an `index.ts` (a TypeScript plugin)
 * or a `plugin.py` (a Python plugin), sorted by name so builds are reproducible. A folder with
 * both is found as a TypeScript plugin; check-plugin-folder.ts reports it.
 */
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';

/** What a plugin's functions run in. */
export type PluginRuntime = 'node' | 'python';

/** The entry file of each runtime's plugin folder. */
export const PLUGIN_ENTRIES: Readonly<Record<PluginRuntime, string>> = { node: 'index.ts', python: 'plugin.py' };

export interface PluginSource {
  /** The folder name, also the bundle folder name. */
  name: string;
  /** Absolute plugin folder. */
  dir: string;
  /** Absolute path of its entry: index.ts, or plugin.py. */
  entry: string;
  runtime: PluginRuntime;
}

/** Plugin folder names: the same rule as specimen ids. */
export const PLUGIN_NAME_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;

/** The plugin in folder `srcDir/name`, or null when the folder holds no entry. */
export function pluginSourceOf(srcDir: string, name: string): PluginSource | null {
  const dir = path.join(srcDir, name);
  for (const runtime of ['node', 'python'] as const) {
    const entry = path.join(dir, PLUGIN_ENTRIES[runtime]);
    if (existsSync(entry)) return { name, dir, entry, runtime };
  }
  return null;
}

export function findPlugins(srcDir: string): PluginSource[] {
  return readdirSync(srcDir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
    .sort()
    .flatMap((name) => pluginSourceOf(srcDir, name) ?? []);
}
