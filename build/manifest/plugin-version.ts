/**
 * @module plugin-version
 * The version people read of a plugin, as its author states it: a TypeScript plugin's from the
 * `package.json` in its folder or the nearest one above; a Python plugin's from `__version__`
 * in its `plugin.py`, else from the nearest `pyproject.toml`. `0.0.0` when nothing says.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { PluginSource } from '../plugins/find-plugins.ts';

export const UNVERSIONED = '0.0.0';

/** The first file named `name` in `dir` or a folder above it. */
function nearest(dir: string, name: string): string | null {
  for (let current = path.resolve(dir); ; current = path.dirname(current)) {
    const file = path.join(current, name);
    if (existsSync(file)) return file;
    if (path.dirname(current) === current) return null;
  }
}

/** The `version` of the package.json `file`, or null. */
function packageVersion(file: string | null): string | null {
  if (!file) return null;
  try {
    const version = (JSON.parse(readFileSync(file, 'utf8')) as { version?: unknown }).version;
    return typeof version === 'string' && version.trim() !== '' ? version.trim() : null;
  } catch {
    return null;
  }
}

/** `__version__ = "1.2.0"` at the top level of a module. */
function dunderVersion(file: string): string | null {
  if (!existsSync(file)) return null;
  const match = /^__version__\s*(?::\s*str\s*)?=\s*(['"])([^'"\n]+)\1/m.exec(readFileSync(file, 'utf8'));
  return match ? match[2]!.trim() : null;
}

/** `version = "…"` in the pyproject `file`'s `[project]` (or Poetry's `[tool.poetry]`) table. */
function pyprojectVersion(file: string | null): string | null {
  if (!file) return null;
  let table = '';
  for (const line of readFileSync(file, 'utf8').split(/\r?\n/)) {
    const header = /^\s*\[([^\]]+)\]\s*$/.exec(line);
    if (header) table = header[1]!.trim();
    else if (table === 'project' || table === 'tool.poetry') {
      const match = /^\s*version\s*=\s*(['"])([^'"]+)\1/.exec(line);
      if (match) return match[2]!.trim();
    }
  }
  return null;
}

/** A plugin's version and the file that states it (where to raise it); `file` null when nothing states one. */
export interface StatedVersion {
  version: string;
  file: string | null;
}

/** Where the plugin's version is stated, and what it says. */
export function statedVersion(plugin: Pick<PluginSource, 'dir' | 'entry' | 'runtime'>): StatedVersion {
  if (plugin.runtime === 'python') {
    const own = dunderVersion(plugin.entry);
    if (own !== null) return { version: own, file: plugin.entry };
    const pyproject = nearest(plugin.dir, 'pyproject.toml');
    const version = pyprojectVersion(pyproject);
    return version !== null ? { version, file: pyproject } : { version: UNVERSIONED, file: null };
  }
  const pkg = nearest(plugin.dir, 'package.json');
  const version = packageVersion(pkg);
  return version !== null ? { version, file: pkg } : { version: UNVERSIONED, file: null };
}
