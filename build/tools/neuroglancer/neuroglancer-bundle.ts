/**
 * @module neuroglancer-bundle
 * Bundles the stock `neuroglancer` package (unmodified, from node_modules) with
 * esbuild into a temp folder a page can load: `main.bundle.js` and `main.bundle.css` (the
 * viewer) beside `chunk_worker.bundle.js` and `async_computation.bundle.js` (its workers).
 * Built once per package version and version of this helper: the folder is kept in the temp
 * directory under both, so a second test process (or a second run) finds it made and pays nothing.
 * The browser tests serve it, and so does `npm run neuroglancer` (serve.ts): a Neuroglancer that
 * needs no network, for a lab whose machines cannot reach neuroglancer-demo.appspot.com.
 *
 * The package ships ES modules that a browser cannot load as they are (package `imports`
 * (`#src/...`), CSS and `?raw` SVG imports) and starts its workers with
 * `new URL('<worker>.bundle.js', import.meta.url)`, which esbuild leaves alone. So each of the
 * package's three bundle entry files is built on its own, flat in one folder: the viewer's
 * `import.meta.url` is then the folder, where its workers are. Serve the folder at the root of
 * an origin: the one worker URL written one folder up (`../async_computation.bundle.js`)
 * resolves to the root there too, since a URL cannot climb above it.
 */
import { existsSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { copyFile, mkdtemp, readFile, rename, rm } from 'node:fs/promises';
import { createServer } from 'node:http';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build, type Plugin } from 'esbuild';

const require = createRequire(import.meta.url);

/** The folder holding neuroglancer's package.json (which its exports do not list): above lib/main_module.js. */
const PACKAGE_DIR = path.dirname(path.dirname(require.resolve('neuroglancer')));

/** The entry files the package itself names as its bundles: the viewer and its two workers. */
const NEUROGLANCER_ENTRIES = ['main', 'chunk_worker', 'async_computation'] as const;

/** An icon drawn when the icon package lacks one Neuroglancer names (a plain square). */
const STAND_IN_ICON =
  '<svg xmlns="http://www.w3.org/2000/svg" width="24" height="24" viewBox="0 0 24 24" fill="none" stroke="currentColor">' +
  '<rect x="4" y="4" width="16" height="16"/></svg>';

/**
 * The registry's ikonate (which the lock file installs in place of the GitHub commit
 * Neuroglancer names) lacks a few icons Neuroglancer imports: those become a plain square,
 * so a button shows a square instead of its picture and nothing else changes.
 */
const missingIcons: Plugin = {
  name: 'missing-ikonate-icons',
  setup(onBuild) {
    onBuild.onResolve({ filter: /^ikonate\/icons\/.*\.svg\?raw$/ }, (args) => {
      const file = args.path.replace(/\?raw$/, '');
      try {
        require.resolve(file, { paths: [args.resolveDir] });
        return undefined;
      } catch {
        return { path: file, namespace: 'stand-in-icon' };
      }
    });
    onBuild.onLoad({ filter: /.*/, namespace: 'stand-in-icon' }, () => ({ contents: STAND_IN_ICON, loader: 'text' }));
  },
};

async function bundleInto(out: string): Promise<void> {
  await build({
    entryPoints: NEUROGLANCER_ENTRIES.map((name) => ({ in: path.join(PACKAGE_DIR, 'lib', `${name}.bundle.js`), out: `${name}.bundle` })),
    outdir: out,
    bundle: true,
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    // Icons are imported as their SVG text (`?raw`); CSS imports gather into main.bundle.css.
    loader: { '.svg': 'text' },
    plugins: [missingIcons],
    minify: false,
    sourcemap: false,
    logLevel: 'error',
  });
  // The WebAssembly modules its workers fetch beside themselves (`new URL('./x.wasm', import.meta.url)`),
  // which esbuild leaves alone: the Draco decoder of multi-resolution meshes among them.
  for (const file of WASM_FILES) await copyFile(path.join(PACKAGE_DIR, 'lib', file), path.join(out, path.basename(file)));
}

/** The package's WebAssembly modules, by path under its `lib/`. */
const WASM_FILES = ['mesh/draco/neuroglancer_draco.wasm', 'sliceview/png/libpng.wasm', 'sliceview/compresso/compresso.wasm'];

let made: Promise<string> | undefined;

/**
 * The folder of the bundled stock Neuroglancer, built on first use. Concurrent processes each
 * build into a folder of their own and rename it into place: the first rename wins, the others
 * fail and use the winner's (never replaced, since another process may be serving it).
 */
export function neuroglancerBundle(): Promise<string> {
  made ??= (async () => {
    const { version } = JSON.parse(await readFile(path.join(PACKAGE_DIR, 'package.json'), 'utf8')) as { version: string };
    // A change to how it is bundled (this file) makes a new folder too.
    const recipe = createHash('sha256').update(await readFile(fileURLToPath(import.meta.url))).digest('hex').slice(0, 12);
    const dir = path.join(tmpdir(), `vitrine-neuroglancer-${version}-${recipe}`);
    if (NEUROGLANCER_ENTRIES.every((name) => existsSync(path.join(dir, `${name}.bundle.js`)))) return dir;
    const fresh = await mkdtemp(`${dir}-building-`);
    try {
      await bundleInto(fresh);
      await rename(fresh, dir);
    } catch (error) {
      await rm(fresh, { recursive: true, force: true });
      // Another process renamed its whole bundle into place first: use that one.
      if (!NEUROGLANCER_ENTRIES.every((name) => existsSync(path.join(dir, `${name}.bundle.js`)))) throw error;
    }
    return dir;
  })();
  return made;
}

/** The index page: the viewer's stylesheet and script; Neuroglancer fills the body. */
const INDEX = [
  '<!doctype html>',
  '<html><head><meta charset="utf-8"><title>neuroglancer</title>',
  '<link rel="stylesheet" href="/main.bundle.css">',
  '<style>html, body { margin: 0; height: 100%; overflow: hidden; }</style>',
  '</head><body><script type="module" src="/main.bundle.js"></script></body></html>',
].join('\n');

const TYPES: Record<string, string> = { '.js': 'text/javascript', '.css': 'text/css', '.wasm': 'application/wasm' };

/** A stock Neuroglancer served on loopback: `url` (its origin, ending in `/`) and `close`. */
export interface NeuroglancerPage {
  url: string;
  close(): Promise<void>;
}

/**
 * Serves the bundle at the root of a fresh origin (see the module comment for why the root),
 * on loopback and a free port unless told: `/` is the index page, `/<file>` a file of the
 * bundle, anything else 404.
 */
export async function serveNeuroglancer(port = 0, host = '127.0.0.1'): Promise<NeuroglancerPage> {
  const dir = await neuroglancerBundle();
  const server = createServer((req, res) => {
    const name = new URL(req.url ?? '/', 'http://page').pathname.slice(1);
    const type = TYPES[path.extname(name)];
    if (name === '') {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(INDEX);
    } else if (type && /^[\w.]+$/.test(name)) {
      readFile(path.join(dir, name)).then(
        (body) => res.writeHead(200, { 'content-type': type }).end(body),
        () => res.writeHead(404).end(),
      );
    } else {
      res.writeHead(404).end();
    }
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, resolve);
  });
  const shown = host.includes(':') ? `[${host}]` : host;
  return {
    url: `http://${shown}:${(server.address() as AddressInfo).port}/`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
