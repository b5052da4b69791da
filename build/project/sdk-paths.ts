/**
 * @module sdk-paths
 * Where the plugin SDK lives, found from the package's own layout (never from the cwd), so
 * plugins in any folder, also outside this checkout, resolve `import ... from 'vitrine'`.
 * Run from the TypeScript sources the SDK is `core/index.ts`; in the compiled package it
 * is `build/dist/core/index.js` with its `index.d.ts` beside it.
 */
import path from 'node:path';
import { CORE_DIR, coreModulePath, PACKAGE_ROOT, RUNNING_COMPILED } from '../../core/loading/package-layout.ts';

export { PACKAGE_ROOT };

/** The SDK folder (core/sdk, compiled or not). */
export const SDK_DIR = path.join(CORE_DIR, 'sdk');

/** The package entry (core/index.ts: the SDK and the envelope decoder) the type checker reads for `vitrine` (the declarations, once compiled). */
export const SDK_INDEX = path.join(CORE_DIR, RUNNING_COMPILED ? 'index.d.ts' : 'index.ts');

/** The SDK entry bundles import for `vitrine`. */
export const SDK_MODULE = coreModulePath('index.ts');

/** This package's node_modules: a fallback for plugins outside the checkout. */
export const PACKAGE_NODE_MODULES = path.join(PACKAGE_ROOT, 'node_modules');

/** True when `file` is declared in the SDK (core/sdk), whatever the import path used. */
export function isSdkFile(file: string): boolean {
  const relative = path.relative(SDK_DIR, file);
  return relative !== '' && !relative.startsWith('..') && !path.isAbsolute(relative);
}
