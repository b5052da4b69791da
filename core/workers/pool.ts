/**
 * @module pool
 * The two worker-thread pools: `compute` runs plugin functions (as many threads as the room
 * scheduler hands out: one per core by default, plus its short lane); `encode` (`encodeThreads`,
 * by default one; a host has one more kept for variants of small results) turns stored results
 * into JSON, shapes and packs delivery variants and parses files, so a /result request never
 * waits behind long-running jobs and never blocks the event loop.
 * The threads' entry file is `task-worker.js` in the compiled package. Run from the TypeScript
 * sources (worker threads cannot load TypeScript), the entry is bundled with esbuild into one ES
 * module the first time a pool starts (tens of milliseconds), written to the OS temp folder
 * under a name derived from its content.
 */
import { createHash } from 'node:crypto';
import { mkdir, rename, stat, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import Tinypool from 'tinypool';
import { loadOnce } from '../loading/load-once.ts';
import { coreModulePath, RUNNING_COMPILED } from '../loading/package-layout.ts';

/** Packages the bundle imports from the host's node_modules rather than holding. */
const OUTSIDE = ['tinypool', 'draco3d'];

async function bundle(): Promise<string> {
  const { build } = await import('esbuild');
  const entry = coreModulePath('workers/task-worker.ts');
  const out = await build({
    entryPoints: [entry],
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    write: false,
    // Packages that find files beside their own (draco3d reads its WebAssembly from its folder)
    // stay outside the bundle, imported from the host's node_modules.
    external: [...OUTSIDE],
    // CommonJS dependencies bundled in (pngjs for the file parsers) require Node's built-in
    // modules, which an ES module can only do through a require of its own.
    banner: { js: "import { createRequire as __vitrineRequire } from 'node:module'; const require = __vitrineRequire(import.meta.url);" },
    logLevel: 'silent',
  });
  let code = out.outputFiles[0]!.text;
  // Resolve them from the host package, wherever the file is written.
  const resolver = createRequire(import.meta.url);
  for (const name of OUTSIDE) {
    const url = JSON.stringify(pathToFileURL(resolver.resolve(name)).href);
    code = code.replace(new RegExp(`from\\s*["']${name}["']`, 'g'), `from ${url}`);
    code = code.replace(new RegExp(`import\\(\\s*["']${name}["']\\s*\\)`, 'g'), `import(${url})`);
  }
  const hash = createHash('sha256').update(code).digest('hex').slice(0, 16);
  const dir = join(tmpdir(), 'vitrine-workers');
  const file = join(dir, `task-worker-${hash}.mjs`);
  const exists = await stat(file).then(() => true, () => false);
  if (!exists) {
    await mkdir(dir, { recursive: true });
    const tmp = `${file}.${process.pid}.tmp`;
    await writeFile(tmp, code);
    await rename(tmp, file);
  }
  return file;
}

const bundled = loadOnce(bundle);

/** Path of the worker entry (bundled once per process when running from sources). */
function workerScriptPath(): Promise<string> {
  return RUNNING_COMPILED ? Promise.resolve(coreModulePath('workers/task-worker.ts')) : bundled();
}

export interface Pools {
  compute: Tinypool;
  encode: Tinypool;
  destroy(): Promise<void>;
}

/**
 * `computeThreads`: the most compute threads at once; `warmComputeThreads` of them are started
 * at once and kept (the short lane must not wait for a thread to start). @defaultValue 1
 */
export async function createPools(options: { computeThreads: number; warmComputeThreads?: number; encodeThreads?: number }): Promise<Pools> {
  const filename = await workerScriptPath();
  // No Atomics.wait between tasks: a thread blocked in it runs no timers, immediates or port
  // closes while idle, so it would never collect the shared buffers it handed over, nor
  // finish closing a run's MessagePort (each computed miss would leave its memory behind).
  // A small young generation per thread: plugin arrays live outside the JS heap, and each
  // thread's nursery otherwise grows to tens of MiB that the process keeps for good.
  const common = {
    filename,
    isolateWorkers: false,
    idleTimeout: 60_000,
    concurrentTasksPerWorker: 1,
    useAtomics: false,
    resourceLimits: { maxYoungGenerationSizeMb: 8 },
  } as const;
  const warm = Math.max(1, Math.min(options.warmComputeThreads ?? 1, options.computeThreads));
  const compute = new Tinypool({ ...common, minThreads: warm, maxThreads: options.computeThreads, name: 'invoke' });
  const encode = new Tinypool({ ...common, minThreads: 0, maxThreads: options.encodeThreads ?? 1, name: 'json' });
  // A thread that dies fails its own task; the pool replaces it and must not take the host down.
  compute.on('error', () => {});
  encode.on('error', () => {});
  return {
    compute,
    encode,
    async destroy() {
      await Promise.allSettled([compute.destroy(), encode.destroy()]);
    },
  };
}
