/**
 * @module version-advice
 * Where to raise a plugin's major version, said in the words of the file that holds it: the
 * `version` of its package.json (a TypeScript plugin's, the nearest one above its folder), the
 * `__version__` of its plugin.py or the `version` of its pyproject.toml (a Python plugin's), or,
 * when nothing states one, the file to state it in.
 */
import path from 'node:path';
import { statedVersion } from '../manifest/plugin-version.ts';
import { pluginSourceOf } from '../plugins/find-plugins.ts';

/**
 * `"version" in plugins/lab/package.json` and the like, for plugin `name` of `srcDir`, with paths
 * as `shown` shows them; null when the plugin's folder is gone.
 */
export function versionPlace(srcDir: string, name: string, next: string, shown: (file: string) => string): string | null {
  const plugin = pluginSourceOf(srcDir, name);
  if (!plugin) return null;
  const { file } = statedVersion(plugin);
  if (plugin.runtime === 'python') {
    if (file === plugin.entry) return `__version__ in ${shown(file)}`;
    if (file !== null) return `version in ${shown(file)}`;
    return `add __version__ = "${next}" to ${shown(plugin.entry)}`;
  }
  if (file !== null) return `"version" in ${shown(file)}`;
  return `add a package.json with "version": "${next}" to ${shown(plugin.dir)}${path.sep}`;
}
