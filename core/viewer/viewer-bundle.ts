/**
 * @module viewer-bundle
 * Builds the web viewer (TypeScript + three.js in `core/viewer/app/`) with esbuild, in memory,
 * on first use: the host starts without paying for it, the first page load does (well under a
 * second), and every later request is served from the cached result. Concurrent first
 * requests share one build; a failed build is not cached, so the next request retries.
 */
import { createHash } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

/** One built file of the viewer. */
export interface ViewerAsset {
  body: Buffer;
  contentType: string;
  /** A strong ETag of the content. */
  etag: string;
}

/** The built viewer files, by their name under `/viewer/`. */
export type ViewerAssets = ReadonlyMap<string, ViewerAsset>;

const ENTRY = fileURLToPath(new URL('./app/main.ts', import.meta.url));

const CONTENT_TYPES: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
};

let pending: Promise<ViewerAssets> | null = null;

async function buildAssets(): Promise<ViewerAssets> {
  const result = await build({
    entryPoints: { app: ENTRY },
    bundle: true,
    write: false,
    minify: true,
    format: 'esm',
    target: ['es2022'],
    platform: 'browser',
    outdir: '/viewer',
    sourcemap: false,
    legalComments: 'none',
    logLevel: 'silent',
  });
  const assets = new Map<string, ViewerAsset>();
  for (const file of result.outputFiles) {
    const name = file.path.slice(file.path.lastIndexOf('/') + 1);
    const ext = name.slice(name.lastIndexOf('.'));
    const body = Buffer.from(file.contents);
    const etag = `"${createHash('sha1').update(body).digest('base64url')}"`;
    assets.set(name, { body, contentType: CONTENT_TYPES[ext] ?? 'application/octet-stream', etag });
  }
  return assets;
}

/** The viewer's built files; builds them once per process. */
export function viewerAssets(): Promise<ViewerAssets> {
  if (!pending) {
    pending = buildAssets().catch((error: unknown) => {
      pending = null;
      throw error;
    });
  }
  return pending;
}
