/**
 * @module sdk-paths
 * Where the plugin SDK lives, found from this file's own location (never from the cwd), so
 * plugins in any folder, also outside this checkout, resolve `import ... from 'vitrine'`.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The package root (the folder holding package.json). */
export const PACKAGE_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

/** The SDK folder, core/sdk. */
export const SDK_DIR = path.join(PACKAGE_ROOT, 'core', 'sdk');

/** The SDK entry that `vitrine` resolves to. */
export const SDK_INDEX = path.join(SDK_DIR, 'index.ts');

/** This package's node_modules: a fallback for plugins outside the checkout. */
export const PACKAGE_NODE_MODULES = path.join(PACKAGE_ROOT, 'node_modules');

/** True when `file` is declared in the SDK (core/sdk), whatever the import path used. */
export function isSdkFile(file: string): boolean {
  const relative = path.relative(SDK_DIR, file);
  return relative !== '' && !relative.startsWith('..') && !path.isAbsolute(relative);
}
