/**
 * @module browser-bundles
 * The browser files the host serves: the web viewer (`/viewer/app.js`, `/viewer/app.css`) and
 * the browser build of the client (`/client.js`). The compiled package ships them prebuilt in
 * `build/dist/assets/` (see build/tools/compile/compile.ts), so a host run from it never loads a
 * bundler. Run from the TypeScript sources they are built with esbuild in memory on first use
 * (concurrent first requests share one build; a failed build is retried by the next request).
 * The viewer is code split: its VR session parts are a chunk loaded on "Enter VR".
 */
import { createHash } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import type { BuildOptions } from 'esbuild';
import { PACKAGE_ROOT, PREBUILT_ASSETS_DIR } from '../loading/package-layout.ts';

/** One built file. */
export interface BrowserAsset {
  body: Buffer;
  contentType: string;
  /** A strong ETag of the content. */
  etag: string;
}

/** Built files by their name inside the bundle's folder. */
export type BrowserAssets = ReadonlyMap<string, BrowserAsset>;

interface BundleSpec {
  /** Folder under `build/dist/assets/` holding the prebuilt files. */
  prebuilt: string;
  /** Source entry (relative to the package root) and the output name. */
  entry: string;
  name: string;
  minify: boolean;
  /** Code split: what the entry imports dynamically becomes files of its own (`chunk-*.js`), loaded on use. */
  splitting: boolean;
}

const SPECS = {
  // The viewer is a package of its own beside core/ (viewer/), built for the browser only.
  viewer: { prebuilt: 'viewer', entry: 'viewer/main.ts', name: 'app', minify: true, splitting: true },
  client: { prebuilt: '.', entry: 'core/client/index.ts', name: 'client', minify: false, splitting: false },
} satisfies Record<string, BundleSpec>;

export type BundleName = keyof typeof SPECS;

/** File names of code-split chunks (the same in the compiled package, see build/tools/compile/compile.ts). */
export const CHUNK_PREFIX = 'chunk-';

const CONTENT_TYPES: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
};

function toAsset(name: string, body: Buffer): BrowserAsset {
  const etag = `"${createHash('sha1').update(body).digest('base64url')}"`;
  return { body, contentType: CONTENT_TYPES[path.extname(name)] ?? 'application/octet-stream', etag };
}

/**
 * The one esbuild configuration of a browser bundle, used both by the compile step (written
 * under `outdir`) and by a host running from sources (built in memory).
 */
export function browserBuildOptions(bundle: BundleName, outdir: string): BuildOptions {
  const spec: BundleSpec = SPECS[bundle];
  return {
    entryPoints: { [spec.name]: path.join(PACKAGE_ROOT, spec.entry) },
    outdir: path.join(outdir, spec.prebuilt),
    bundle: true,
    minify: spec.minify,
    splitting: spec.splitting,
    chunkNames: `${CHUNK_PREFIX}[hash]`,
    format: 'esm',
    target: ['es2022'],
    platform: 'browser',
    legalComments: 'none',
  };
}

async function readPrebuilt(assetsDir: string, spec: BundleSpec): Promise<BrowserAssets> {
  const dir = path.join(assetsDir, spec.prebuilt);
  const assets = new Map<string, BrowserAsset>();
  for (const name of await readdir(dir)) {
    if (name.startsWith(`${spec.name}.`) || (spec.splitting && name.startsWith(CHUNK_PREFIX)))
      assets.set(name, toAsset(name, await readFile(path.join(dir, name))));
  }
  return assets;
}

async function buildInMemory(bundle: BundleName): Promise<BrowserAssets> {
  const { build } = await import('esbuild');
  const result = await build({ ...browserBuildOptions(bundle, '/assets'), write: false, logLevel: 'silent' });
  return new Map(result.outputFiles.map((file) => [path.basename(file.path), toAsset(file.path, Buffer.from(file.contents))]));
}

const pending = new Map<BundleName, Promise<BrowserAssets>>();

/** The files of one bundle; read or built once per process. */
export function browserAssets(bundle: BundleName): Promise<BrowserAssets> {
  let assets = pending.get(bundle);
  if (!assets) {
    assets = (PREBUILT_ASSETS_DIR ? readPrebuilt(PREBUILT_ASSETS_DIR, SPECS[bundle]) : buildInMemory(bundle)).catch((error: unknown) => {
      pending.delete(bundle);
      throw error;
    });
    pending.set(bundle, assets);
  }
  return assets;
}
