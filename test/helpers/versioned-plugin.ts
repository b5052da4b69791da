/**
 * @module versioned-plugin
 * Versions of one small plugin (`shapes`: the function `ring` and its specimens) built with the
 * real `vitrine build`, each into a folder of its own, once per version and test process; and
 * the drop-in an operator makes: a built bundle copied into a host's plugins folder.
 */
import { cp, mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { runVitrine, sampleShapesPlugin, writeFiles } from '../build/helpers/run-cli.ts';

const built = new Map<string, Promise<string>>();

/** Ways a version of `shapes` may differ beyond its default radius: `mode-renamed` calls `ring`'s mode 'fast' 'quick'. */
export type ShapesVariant = 'same' | 'mode-renamed';

/** `shapes`' source files as `variant` changes them. */
function variantFiles(radius: string, variant: ShapesVariant): Record<string, string | Uint8Array> {
  const files = sampleShapesPlugin(radius);
  if (variant === 'mode-renamed') files['shapes/index.ts'] = String(files['shapes/index.ts']).replace("'fast' | 'fine' = 'fast'", "'quick' | 'fine' = 'quick'");
  return files;
}

/** The bundle folder of `shapes` at `version`, whose `ring` has `radius` as its default. */
export function shapesVersion(version: string, radius = '1.5', variant: ShapesVariant = 'same'): Promise<string> {
  const key = `${version}/${radius}/${variant}`;
  let dir = built.get(key);
  if (!dir) {
    dir = (async () => {
      const root = await mkdtemp(path.join(tmpdir(), 'vitrine-versioned-'));
      writeFiles(path.join(root, 'src'), { ...variantFiles(radius, variant), 'shapes/package.json': JSON.stringify({ name: 'shapes', version }) });
      const run = await runVitrine(['build', 'src', '--out', 'out'], root);
      if (run.code !== 0) throw new Error(`vitrine build failed: ${run.stderr}`);
      return path.join(root, 'out', 'shapes');
    })();
    built.set(key, dir);
  }
  return dir;
}

/** A fresh, empty plugins folder. */
export function pluginsFolder(): Promise<string> {
  return mkdtemp(path.join(tmpdir(), 'vitrine-plugins-'));
}

/** Copies a built bundle folder into `pluginsDir` as plugin `name`, over what is there, file by file (as `cp -r` does). */
export async function dropIn(bundleDir: string, pluginsDir: string, name = 'shapes'): Promise<void> {
  await cp(bundleDir, path.join(pluginsDir, name), { recursive: true, force: true });
}
