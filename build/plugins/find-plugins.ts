/**
 * @module find-plugins
 * The plugin folders of SRC: each direct subfolder holding an `index.ts`, sorted by name so
 * builds are reproducible.
 */
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';

export interface PluginSource {
  /** The folder name, also the bundle folder name. */
  name: string;
  /** Absolute plugin folder. */
  dir: string;
  /** Absolute path of its index.ts. */
  entry: string;
}

/** Plugin folder names: the same rule as specimen ids. */
export const PLUGIN_NAME_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;

export function findPlugins(srcDir: string): PluginSource[] {
  return readdirSync(srcDir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && existsSync(path.join(srcDir, entry.name, 'index.ts')))
    .map((entry) => entry.name)
    .sort()
    .map((name) => ({ name, dir: path.join(srcDir, name), entry: path.join(srcDir, name, 'index.ts') }));
}
