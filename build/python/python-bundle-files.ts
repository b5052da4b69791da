/**
 * @module python-bundle-files
 * The files a Python plugin's bundle folder carries: everything in the plugin folder (its
 * `plugin.py`, sibling modules, data files, thumbnails), in name order, except what only its
 * author needs: bytecode caches, hidden files, tests (`tests/`, `test/`, `test_*.py`,
 * `*_test.py`, `conftest.py`) and `node_modules`. Symbolic links are not followed, so a bundle
 * never carries a file from outside its folder; a `manifest.json` of the author's would be
 * overwritten by the build's, so it is left out too.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

const SKIPPED_FOLDERS = new Set(['__pycache__', 'node_modules', 'tests', 'test']);
const TEST_FILE = /^(test_.*|.*_test|conftest)\.py$/;

/** True when a path inside a plugin folder (relative, posix) goes into the bundle. */
export function isBundledPath(relative: string): boolean {
  const parts = relative.split('/');
  if (parts.some((part) => part.startsWith('.'))) return false;
  if (parts.slice(0, -1).some((part) => SKIPPED_FOLDERS.has(part))) return false;
  const name = parts[parts.length - 1]!;
  if (SKIPPED_FOLDERS.has(name) || TEST_FILE.test(name) || /\.py[co]$/.test(name)) return false;
  return relative !== 'manifest.json';
}

/** Relative posix path → bytes for every file of `pluginDir` the bundle carries. */
export function collectPythonFiles(pluginDir: string): Map<string, Buffer> {
  const files = new Map<string, Buffer>();
  const walk = (dir: string): void => {
    const entries = readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const entry of entries) {
      const full = path.join(dir, entry.name);
      const relative = path.relative(pluginDir, full).split(path.sep).join('/');
      if (!isBundledPath(relative)) continue;
      if (entry.isDirectory()) walk(full);
      else if (entry.isFile()) files.set(relative, readFileSync(full));
    }
  };
  walk(pluginDir);
  return files;
}
