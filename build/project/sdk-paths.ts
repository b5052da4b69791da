/**
 * @module sdk-paths
 * Where the plugin SDK lives, found from this file's own location (never from the cwd), so
 * plugins in any folder, also outside this checkout, resolve `import ... from 'vitrine'`.
 * Run from the TypeScript sources the SDK is `core/sdk/index.ts`; in the compiled package it
 * is `build/dist/core/sdk/index.js` with its `index.d.ts` beside it.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const COMPILED = import.meta.url.endsWith('.js');

function findPackageRoot(from: string): string {
  let dir = from;
  while (!existsSync(path.join(dir, 'package.json'))) {
    const parent = path.dirname(dir);
    if (parent === dir) return path.resolve(from, '..', '..');
    dir = parent;
  }
  return dir;
}

/** The package root (the folder holding package.json). */
export const PACKAGE_ROOT = findPackageRoot(HERE);

/** The SDK folder (core/sdk, compiled or not). */
export const SDK_DIR = path.resolve(HERE, '..', '..', 'core', 'sdk');

/** The SDK entry the type checker reads for `vitrine`. */
export const SDK_INDEX = path.join(SDK_DIR, COMPILED ? 'index.d.ts' : 'index.ts');

/** The SDK entry bundles import for `vitrine`. */
export const SDK_MODULE = path.join(SDK_DIR, COMPILED ? 'index.js' : 'index.ts');

/** This package's node_modules: a fallback for plugins outside the checkout. */
export const PACKAGE_NODE_MODULES = path.join(PACKAGE_ROOT, 'node_modules');

/** True when `file` is declared in the SDK (core/sdk), whatever the import path used. */
export function isSdkFile(file: string): boolean {
  const relative = path.relative(SDK_DIR, file);
  return relative !== '' && !relative.startsWith('..') && !path.isAbsolute(relative);
}
