/**
 * @module esbuild-options
 * The esbuild options for a plugin bundle: one ESM file for Node with the plugin's npm
 * dependencies bundled in, names kept (function names are registered names), `vitrine`
 * aliased to the SDK, and nothing that varies between runs (no timestamps, no absolute
 * paths: the working directory is the plugin folder).
 */
import path from 'node:path';
import type { BuildOptions } from 'esbuild';
import { PACKAGE_NODE_MODULES, SDK_MODULE } from '../project/sdk-paths.ts';

/** The bundle's file name inside its folder. */
export const BUNDLE_FILE = 'index.mjs';

/**
 * Bundled CommonJS dependencies may call `require` for Node built-ins; ESM has none, so the
 * bundle creates one (under a name that cannot clash with plugin code).
 */
const REQUIRE_SHIM = "import { createRequire as __vitrineCreateRequire } from 'node:module';\nconst require = __vitrineCreateRequire(import.meta.url);";

export function pluginEsbuildOptions(entry: string, outDir: string): BuildOptions & { write: false } {
  return {
    entryPoints: [entry],
    outfile: path.join(outDir, BUNDLE_FILE),
    absWorkingDir: path.dirname(entry),
    bundle: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    keepNames: true,
    write: false,
    sourcemap: false,
    legalComments: 'inline',
    charset: 'utf8',
    logLevel: 'silent',
    alias: { vitrine: SDK_MODULE },
    // Plugins outside this checkout still find the packages this host ships with.
    nodePaths: [PACKAGE_NODE_MODULES],
    banner: { js: REQUIRE_SHIM },
  };
}
