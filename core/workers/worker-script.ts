/**
 * @module worker-script
 * The worker-thread entry file. In the compiled package it is `task-worker.js` beside this
 * file. Run from the TypeScript sources (worker threads cannot load TypeScript), the entry is
 * bundled with esbuild into one ES module the first time a pool starts (tens of
 * milliseconds), written to the OS temp folder under a name derived from its content.
 */
import { createHash } from 'node:crypto';
import { mkdir, rename, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
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
export function workerScriptPath(): Promise<string> {
  return RUNNING_COMPILED ? Promise.resolve(coreModulePath('workers/task-worker.ts')) : bundled();
}
