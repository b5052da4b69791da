/**
 * @module check-output
 * `vitrine build --check`: compares what a build would write with the output directory byte
 * for byte and names every plugin whose bundle folder is missing, stale, or left over.
 */
import path from 'node:path';
import type { PluginOutput } from './plugin-output.ts';
import { listBundleFolders, readBundleFolder } from './read-bundle-folder.ts';

export interface StaleEntry {
  plugin: string;
  reason: string;
}

function differences(expected: Map<string, Buffer>, actual: Map<string, Buffer>): string[] {
  const reasons: string[] = [];
  for (const [file, bytes] of expected) {
    const found = actual.get(file);
    if (!found) reasons.push(`${file} missing`);
    else if (!found.equals(bytes)) reasons.push(`${file} differs`);
  }
  // `vitrine sign` adds manifest.sig after a build: it belongs to the bundle without being built.
  for (const file of actual.keys()) if (!expected.has(file) && file !== 'manifest.sig') reasons.push(`${file} is not produced by the build`);
  return reasons;
}

/** Every plugin whose output is not current (empty when everything is). */
export function checkOutput(outDir: string, plugins: PluginOutput[]): StaleEntry[] {
  const stale: StaleEntry[] = [];
  for (const plugin of plugins) {
    const actual = readBundleFolder(path.join(outDir, plugin.name));
    if (actual.size === 0) {
      stale.push({ plugin: plugin.name, reason: 'missing (not built)' });
      continue;
    }
    const reasons = differences(plugin.files, actual);
    if (reasons.length > 0) stale.push({ plugin: plugin.name, reason: `stale: ${reasons.join(', ')}` });
  }
  const names = new Set(plugins.map((plugin) => plugin.name));
  for (const leftover of listBundleFolders(outDir)) {
    if (!names.has(leftover)) stale.push({ plugin: leftover, reason: 'left over: no such plugin in the source folder' });
  }
  return stale;
}
