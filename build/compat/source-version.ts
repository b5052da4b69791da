/**
 * @module source-version
 * A plugin's version for a manifest that carries none (written before manifests had one):
 * read from its source folder as the build reads it, the nearest `package.json` for a
 * TypeScript plugin, `__version__` in `plugin.py` or the nearest `pyproject.toml` for a Python
 * one. A manifest's own `version` always wins; without a source folder it is `0.0.0`.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { UNVERSIONED, type VersionedManifest } from './compat-report.ts';

function nearest(dir: string, name: string): string | null {
  for (let current = path.resolve(dir); ; current = path.dirname(current)) {
    if (existsSync(path.join(current, name))) return path.join(current, name);
    if (path.dirname(current) === current) return null;
  }
}

function read(file: string | null, pattern: RegExp): string | null {
  if (file === null || !existsSync(file)) return null;
  return pattern.exec(readFileSync(file, 'utf8'))?.[1]?.trim() ?? null;
}

function packageVersion(dir: string): string | null {
  const file = nearest(dir, 'package.json');
  try {
    const version = file ? (JSON.parse(readFileSync(file, 'utf8')) as { version?: unknown }).version : undefined;
    return typeof version === 'string' && version.trim() !== '' ? version.trim() : null;
  } catch {
    return null;
  }
}

function pythonVersion(dir: string): string | null {
  return (
    read(path.join(dir, 'plugin.py'), /^__version__\s*(?::\s*str\s*)?=\s*['"]([^'"\n]+)['"]/m) ??
    read(nearest(dir, 'pyproject.toml'), /^\[project\][^[]*?^\s*version\s*=\s*['"]([^'"\n]+)['"]/m)
  );
}

/** `manifest` with its `version` filled in from `pluginDir` when it has none. */
export function withVersion(manifest: VersionedManifest, pluginDir: string | null): VersionedManifest {
  if (typeof manifest.version === 'string') return manifest;
  const found = pluginDir === null ? null : manifest.runtime === 'python' ? pythonVersion(pluginDir) : packageVersion(pluginDir);
  return { ...manifest, version: found ?? UNVERSIONED };
}
