/**
 * @module compile-paths
 * Where the compiled distribution comes from and goes: every TypeScript file of `core/` and
 * `build/` (directories, not lists, so new files are included) into `build/dist/`, keeping
 * the source layout, and beside them the Python files the package runs (the build's plugin
 * reader); the browser bundles into `build/dist/assets/`.
 */
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository root. */
export const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..', '..');

/** The compiled distribution. */
export const DIST_DIR = path.join(REPO_ROOT, 'build', 'dist');

/** Prebuilt browser files (the web viewer and the browser build of the client). */
export const ASSETS_DIR = path.join(DIST_DIR, 'assets');

/** Source roots compiled file by file. */
const SOURCE_ROOTS = ['core', 'build'];

/** Folders under the source roots that are not part of what runs. */
const SKIPPED = new Set(['build/dist', 'build/out', 'build/tools'].map((p) => path.join(REPO_ROOT, p)));

function walk(dir: string, found: string[], wanted: (name: string) => boolean): void {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) {
      if (!SKIPPED.has(full) && entry.name !== 'node_modules' && entry.name !== '__pycache__') walk(full, found, wanted);
    } else if (wanted(entry.name)) found.push(full);
  }
}

function filesOf(wanted: (name: string) => boolean): string[] {
  const found: string[] = [];
  for (const root of SOURCE_ROOTS) walk(path.join(REPO_ROOT, root), found, wanted);
  return found.sort();
}

/** Every TypeScript file the distribution is compiled from, sorted. */
export function sourceFiles(): string[] {
  return filesOf((name) => name.endsWith('.ts') && !name.endsWith('.d.ts'));
}

/** Python files the package runs as they are (copied, not compiled), sorted. */
export function pythonFiles(): string[] {
  return filesOf((name) => name.endsWith('.py'));
}
