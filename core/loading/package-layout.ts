/**
 * @module package-layout
 * The one place that decides how this process runs: from the TypeScript sources of a checkout
 * (loaded through tsx) or from the compiled package (`build/dist/`, plain JavaScript), and
 * where the files that differ between the two are found. Worker threads, browser bundles, VR
 * controller models and the plugin SDK all ask here instead of guessing for themselves.
 *
 * (The `vitrine` launcher, core/cli/vitrine-bin.js, makes the same choice once more before any
 * TypeScript can load: it must pick the loader.)
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** True when this file is the compiled JavaScript of the package, false when run from sources. */
export const RUNNING_COMPILED = import.meta.url.endsWith('.js');

/** The `core/` folder of this run (this file's parent's): the sources, or `build/dist/core/` of the compiled package. */
export const CORE_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

function findPackageRoot(from: string): string {
  for (let dir = from; ; dir = path.dirname(dir)) {
    if (existsSync(path.join(dir, 'package.json'))) return dir;
    if (path.dirname(dir) === dir) return path.resolve(from, '..');
  }
}

/** The package root (the folder holding package.json), in a checkout and once installed. */
export const PACKAGE_ROOT = findPackageRoot(CORE_DIR);

/**
 * Where the compiled package keeps what it built ahead of time (browser bundles, VR controller
 * models): `build/dist/assets/`. Null when running from sources, which build or read them on use.
 */
export const PREBUILT_ASSETS_DIR: string | null = RUNNING_COMPILED ? path.resolve(CORE_DIR, '..', 'assets') : null;

/** A module of core/ named by its source path (`workers/task-worker.ts`), as this run loads it. */
export function coreModulePath(sourcePath: string): string {
  return path.join(CORE_DIR, RUNNING_COMPILED ? sourcePath.replace(/\.ts$/, '.js') : sourcePath);
}
