/**
 * @module version-advice
 * Where to raise a plugin's major version: in a file of the plugin's own, never in one it shares
 * with the rest of the project. A TypeScript plugin's is the package.json in its folder; when it
 * has none (its version was read from the project's package.json above it, or from nothing),
 * that file is made, holding the plugin's name and the version it had until now, so the author
 * raises this plugin alone (raising the shared one would move every plugin of the project). The
 * made file keeps the module `type` of the one above, so the plugin's files read as before. A
 * Python plugin's own is the `__version__` of its plugin.py or a pyproject.toml in its folder;
 * when its version comes from a pyproject.toml above, or from nothing, the advice is to state
 * `__version__` in its plugin.py (code is not written to).
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { statedVersion } from '../manifest/plugin-version.ts';
import { pluginSourceOf, type PluginSource } from '../plugins/find-plugins.ts';

/** Where a plugin's version is to be raised, as the verdict says it. */
export interface VersionHome {
  /** The words of the verdict: `"version" in plugins/lab/package.json` and the like. */
  text: string;
  /** The file (as shown), the plugin's own. */
  file: string;
  /** True when the file was made just now. */
  made: boolean;
}

/** Whether `file` sits in the plugin's own folder (not in one above it). */
const isOwn = (plugin: PluginSource, file: string | null): file is string => file !== null && path.dirname(file) === path.resolve(plugin.dir);

/** The module `type` the package.json `file` states, if any. */
function moduleType(file: string | null): string | undefined {
  if (file === null) return undefined;
  try {
    const type = (JSON.parse(readFileSync(file, 'utf8')) as { type?: unknown }).type;
    return typeof type === 'string' ? type : undefined;
  } catch {
    return undefined;
  }
}

/** A package.json of the plugin's own in its folder, at `version`; the file. */
function makePackageJson(plugin: PluginSource, version: string, above: string | null): string {
  const file = path.join(path.resolve(plugin.dir), 'package.json');
  const type = moduleType(above);
  writeFileSync(file, `${JSON.stringify({ name: plugin.name, version, private: true, ...(type ? { type } : {}) }, null, 2)}\n`);
  return file;
}

/**
 * Where to raise plugin `name` of `srcDir` to `next`, with paths as `shown` shows them; a
 * TypeScript plugin without a package.json of its own gets one here. Null when its folder is gone.
 */
export function versionHome(srcDir: string, name: string, next: string, shown: (file: string) => string): VersionHome | null {
  const plugin = pluginSourceOf(srcDir, name);
  if (!plugin) return null;
  const { version, file } = statedVersion(plugin);
  if (plugin.runtime === 'python') {
    if (file === plugin.entry) return { text: `__version__ in ${shown(file)}`, file: shown(file), made: false };
    if (isOwn(plugin, file)) return { text: `version in ${shown(file)}`, file: shown(file), made: false };
    return { text: `add __version__ = "${next}" to ${shown(plugin.entry)}`, file: shown(plugin.entry), made: false };
  }
  const ownFile = path.join(path.resolve(plugin.dir), 'package.json');
  if (existsSync(ownFile)) {
    const text = file === ownFile ? `"version" in ${shown(ownFile)}` : `add "version": "${next}" to ${shown(ownFile)}`;
    return { text, file: shown(ownFile), made: false };
  }
  // Only a package.json in the plugin's folder is its own; one above is the whole project's.
  const own = shown(makePackageJson(plugin, version, file));
  const before = file === null ? 'no version stated' : `${version} from ${shown(file)}, which is not the plugin's own`;
  return { text: `"version" in ${own} (made now: ${before})`, file: own, made: true };
}
