/**
 * @module resolve-thumbnail
 * A declared thumbnail: a `data:` URI passes through; a path relative to the plugin folder
 * must stay inside it and exist, and is copied into the bundle folder at the same relative
 * path (so `./thumbnails/torus.png` becomes `thumbnails/torus.png` in the manifest). A
 * specimen that declares none has `thumbnails/<id>.png` when the plugin folder holds one
 * (where `vitrine thumbnails` writes it).
 */
import { existsSync, statSync } from 'node:fs';
import path from 'node:path';

export type ThumbnailResolution =
  | { kind: 'none' }
  | { kind: 'data-uri'; uri: string }
  | { kind: 'file'; source: string; bundlePath: string }
  | { kind: 'outside'; why: string }
  | { kind: 'missing'; source: string };

/** Names the bundle folder uses itself; a thumbnail may not overwrite them. */
const RESERVED = new Set(['index.mjs', 'manifest.json']);

export function resolveThumbnail(thumbnail: string | undefined, pluginDir: string): ThumbnailResolution {
  if (thumbnail === undefined || thumbnail === '') return { kind: 'none' };
  if (/^data:/i.test(thumbnail)) return { kind: 'data-uri', uri: thumbnail };
  if (path.isAbsolute(thumbnail) || path.win32.isAbsolute(thumbnail) || /^[a-z][a-z0-9+.-]*:/i.test(thumbnail)) {
    return { kind: 'outside', why: `'${thumbnail}' is absolute; give a path relative to the plugin folder or a data: URI` };
  }
  const source = path.resolve(pluginDir, thumbnail);
  const bundlePath = path.relative(pluginDir, source).split(path.sep).join('/');
  if (bundlePath === '' || bundlePath.startsWith('..') || thumbnail.split(/[\\/]/).includes('..')) {
    return { kind: 'outside', why: `'${thumbnail}' leaves the plugin folder` };
  }
  if (RESERVED.has(bundlePath)) return { kind: 'outside', why: `'${thumbnail}' would overwrite the bundle's ${bundlePath}` };
  if (!existsSync(source) || !statSync(source).isFile()) return { kind: 'missing', source };
  return { kind: 'file', source, bundlePath };
}

/** The thumbnail a specimen has by convention, `thumbnails/<id>.png`, when that file exists. */
export function conventionalThumbnail(id: string, pluginDir: string): string | undefined {
  const relative = `thumbnails/${id}.png`;
  const file = path.join(pluginDir, relative);
  return existsSync(file) && statSync(file).isFile() ? relative : undefined;
}
