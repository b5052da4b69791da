/**
 * @module compile
 * Compiles the package into `build/dist/` (run by `npm run compile`, `npm start`, `npm test`
 * and `prepack`): esbuild transpiles each TypeScript file of core/ and build/ on its own into
 * an ES module (relative `.ts` imports become `.js`, packages stay imports), then bundles the
 * web viewer and the browser build of the client, copies the VR controller models
 * (core/assets/xr-profiles.ts) and the Python files beside the modules that run them
 * (compile-paths.ts); `tsc` (tsc-path.mjs picks which) adds the `.d.ts` files of the public
 * entry points (the SDK ones are also what `vitrine build` reads plugin types against).
 * Nothing is done when no input changed since the last compile (input-stamp.mjs): the stamp
 * of core/, build/ and the package files is written into build/dist once it is complete.
 *
 * Usage: `node --import tsx build/tools/compile/compile.ts [--force]`
 */
import { execFileSync } from 'node:child_process';
import { cpSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { build, type BuildOptions, type Plugin } from 'esbuild';
import { browserBuildOptions } from '../../../core/assets/browser-bundles.ts';
import { installedProfilesDir, XR_PROFILE_IDS } from '../../../core/assets/xr-profiles.ts';
import { ASSETS_DIR, DIST_DIR, pythonFiles, REPO_ROOT, sourceFiles } from './compile-paths.ts';
import { COMPILE_STAMP, compileInputs, isCurrent, stampOf, writeStamp } from './input-stamp.mjs';
import { tscPath } from '../setup/tsc-path.mjs';

/** Keeps every import an import: relative `.ts` specifiers point at the compiled `.js`. */
const keepImports: Plugin = {
  name: 'keep-imports',
  setup(on) {
    on.onResolve({ filter: /.*/ }, (args) => {
      if (args.kind === 'entry-point') return undefined;
      if (args.path.startsWith('.') && args.path.endsWith('.ts')) return { path: `${args.path.slice(0, -3)}.js`, external: true };
      return { path: args.path, external: true };
    });
  },
};

/** What both Node builds share: ES modules for Node 20, written into build/dist in the sources' layout. */
const NODE_BUILD: BuildOptions = {
  outdir: DIST_DIR,
  outbase: REPO_ROOT,
  bundle: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  charset: 'utf8',
  logLevel: 'warning',
};

async function transpile(): Promise<number> {
  const files = sourceFiles();
  await build({ ...NODE_BUILD, entryPoints: files, plugins: [keepImports] });
  return files.length;
}

/**
 * The processes' entry files, each overwritten with one ES module holding every core module it
 * reaches and the plain JavaScript packages they use (fastify and its plugins, ajv, yaml ...;
 * those in OUTSIDE stay imports of node_modules). A host, a worker and every `vitrine` command
 * then start without resolving, reading and linking some 600 core files and 570 package files
 * one by one: the core files were about 1 CPU-second of a host's 2.4, the package files another
 * third of a second (1.73 against 2.06 CPU-s from start to stop). Every
 * module keeps its own file too, for the SDK entry points and the declarations. The bundles sit
 * where the per-file modules did, so paths derived from their location (the core folder, the
 * package root) stay what they were.
 */
const ENTRY_POINTS = ['core/cli/bin.ts', 'core/workers/task-worker.ts'];

/**
 * Packages the entry bundles leave to node_modules: native code, files read beside their own
 * modules (worker scripts, Lua scripts, web assets, wasm), the build tools, and the large
 * clients a host loads only when configured for them (S3, the model providers, MCP, metrics).
 */
const OUTSIDE = new Set([
  'lmdb', 'msgpackr', 'msgpackr-extract', 'bufferutil', 'utf-8-validate', 'node-gyp-build', 'node-gyp-build-optional-packages',
  '@fastify/swagger-ui', 'tinypool', 'pino', 'thread-stream', 'bullmq', 'ioredis', 'esbuild', 'typescript', 'ts-morph',
  'draco3d', 'meshoptimizer', 'playwright-core', '@aws-sdk/client-s3', '@aws-sdk/lib-storage', '@anthropic-ai/sdk', 'openai',
  '@modelcontextprotocol/sdk', 'prom-client', 'tsx',
]);
const packageOf = (specifier: string) => specifier.split('/').slice(0, specifier.startsWith('@') ? 2 : 1).join('/');
const packagesOutside: Plugin = {
  name: 'packages-outside',
  setup(on) {
    on.onResolve({ filter: /^[^./]/ }, (args) => {
      if (args.path.startsWith('node:') || OUTSIDE.has(packageOf(args.path))) return { path: args.path, external: true };
      return undefined;
    });
  },
};

async function entryBundles(): Promise<void> {
  await build({
    ...NODE_BUILD,
    entryPoints: ENTRY_POINTS.map((entry) => path.join(REPO_ROOT, entry)),
    // What is imported on demand (the relay, metrics, the Redis homes) stays a file of its own
    // and loads when asked, as before: one file would hoist its packages' imports to the top.
    splitting: true,
    chunkNames: 'core/chunks/[name]-[hash]',
    allowOverwrite: true,
    plugins: [packagesOutside],
    // Bundled CommonJS packages call require() for Node's built-ins and their optional
    // packages; an ES module has none of its own, so the bundle makes one.
    banner: { js: "import { createRequire as __vitrineRequire } from 'node:module'; const require = __vitrineRequire(import.meta.url);" },
  });
}

/** The browser bundles, with the same configuration a host running from sources builds them. */
async function browserBundles(): Promise<void> {
  await Promise.all((['viewer', 'client'] as const).map((bundle) => build({ ...browserBuildOptions(bundle, ASSETS_DIR), logLevel: 'warning' })));
}

/** The VR viewer's controller and hand models: only the shipped profiles of the 98 MB package. */
function xrProfiles(): void {
  const from = installedProfilesDir();
  for (const id of XR_PROFILE_IDS) cpSync(path.join(from, id), path.join(ASSETS_DIR, 'xr-profiles', id), { recursive: true });
}

/** Python files keep their place relative to the compiled modules that find them by URL. */
function python(): void {
  for (const file of pythonFiles()) cpSync(file, path.join(DIST_DIR, path.relative(REPO_ROOT, file)));
}

/** Relative `.ts` specifiers in emitted declarations, which tsc keeps as written. */
const TS_SPECIFIER = /((?:from|import)\s*\(?\s*['"]\.{1,2}\/[^'"]*)\.ts(['"])/g;

function declarations(): void {
  const project = path.join(REPO_ROOT, 'build/tools/compile/tsconfig.types.json');
  execFileSync(process.execPath, [tscPath(REPO_ROOT), '-p', project], { cwd: REPO_ROOT, stdio: 'inherit' });
  for (const entry of readdirSync(DIST_DIR, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile() || !entry.name.endsWith('.d.ts')) continue;
    const file = path.join(entry.parentPath, entry.name);
    writeFileSync(file, readFileSync(file, 'utf8').replace(TS_SPECIFIER, '$1.js$2'));
  }
}

const started = performance.now();
// Taken before anything is read: a file saved during the compile moves it, so the next run compiles again.
const inputs = compileInputs();
const stamp = stampOf(inputs);
if (!process.argv.includes('--force') && isCurrent(COMPILE_STAMP, stamp)) {
  process.stdout.write(`${path.relative(REPO_ROOT, DIST_DIR)} is up to date (${inputs.length} input files unchanged since it was compiled)\n`);
  process.exit(0);
}
rmSync(DIST_DIR, { recursive: true, force: true });
const count = await transpile();
await entryBundles();
await browserBundles();
xrProfiles();
python();
declarations();
writeStamp(COMPILE_STAMP, stamp);
process.stdout.write(`compiled ${count} files into ${path.relative(REPO_ROOT, DIST_DIR)} in ${((performance.now() - started) / 1000).toFixed(2)} s\n`);
