/**
 * @module write-output
 * Writes built plugins into the output directory: each bundle folder is replaced as a whole
 * (so files a previous build wrote and this one does not are gone), and bundle folders of
 * plugins that no longer exist in SRC are removed. Other folders in the directory stay.
 */
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { PluginOutput } from './plugin-output.ts';
import { listBundleFolders } from './read-bundle-folder.ts';

/** Writes `plugins` into `outDir`; returns the names of removed stale bundle folders. */
export function writeOutput(outDir: string, plugins: PluginOutput[]): string[] {
  mkdirSync(outDir, { recursive: true });
  const current = new Set(plugins.map((plugin) => plugin.name));
  const removed = listBundleFolders(outDir).filter((name) => !current.has(name));
  for (const name of removed) rmSync(path.join(outDir, name), { recursive: true, force: true });
  for (const plugin of plugins) writePluginFolder(outDir, plugin);
  return removed;
}

/** Replaces one plugin's bundle folder in `outDir` as a whole. */
export function writePluginFolder(outDir: string, plugin: PluginOutput): void {
  const dir = path.join(outDir, plugin.name);
  rmSync(dir, { recursive: true, force: true });
  for (const [relative, bytes] of plugin.files) {
    const file = path.join(dir, ...relative.split('/'));
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, bytes);
  }
}
