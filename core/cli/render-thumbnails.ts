/**
 * @module render-thumbnails
 * Renders the thumbnail of every declared specimen of a plugins folder (`vitrine thumbnails`):
 * builds each TypeScript plugin as `vitrine/testing` does, or reads a Python plugin as the build
 * does and runs it in a plugin process as the host does, runs each declared specimen's function
 * with its defaults (inputs read from the specimens directory), draws the result with
 * the small software renderers of core/thumbnails/ and writes `<plugin>/thumbnails/<id>.png`
 * (256 × 256), where `vitrine build` finds it without a declaration; a specimen that declares
 * a thumbnail path gets that file written instead.
 */
import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import type { SpecimenResult } from 'vitrine';
import { encodePng } from '../formats/png/encode-png.ts';
import { loadPlugin } from '../testing/index.ts';
import { loadPythonPlugin } from '../testing/load-python-plugin.ts';
import type { ManifestSpecimen } from '../registry/manifest-types.ts';
import { toBytes } from '../thumbnails/canvas.ts';
import { renderResult } from '../thumbnails/render-result.ts';

const SIZE = 256;

export interface ThumbnailRun {
  /** The folder of plugin folders (each with an `index.ts`). */
  pluginsDir: string;
  /** The specimens directory default inputs are read from. */
  specimensDir: string;
  /** Plugin names or specimen ids to render; none: all. */
  filters: string[];
  log: (line: string) => void;
  /** Told of each specimen that could not be rendered, with the reason. */
  failed?: (why: string) => void;
}

/** A plugin's declared specimens and a way to compute each, whichever language it is in. */
interface ThumbnailSource {
  plugin: string;
  specimens: ManifestSpecimen[];
  compute(fn: string): Promise<SpecimenResult>;
  close(): void;
}

/** The plugin in `dir`: a TypeScript one built and imported, a Python one read and run in a plugin process. */
async function sourceOf(dir: string, runtime: 'node' | 'python', specimensDir: string): Promise<ThumbnailSource> {
  const plugin = basename(dir);
  if (runtime === 'python') {
    const python = await loadPythonPlugin(dir);
    const compute = async (fn: string) => (await python.call(fn, {})) as unknown as SpecimenResult;
    return { plugin, specimens: python.specimens, compute, close: () => python.close() };
  }
  const test = await loadPlugin(dir, { specimens: specimensDir });
  return { plugin, specimens: test.specimens, compute: async (fn) => (await test.call(fn, {})).result as SpecimenResult, close: () => {} };
}

/**
 * Renders the thumbnails `run` names; returns the files written. A specimen whose function
 * fails (or that cannot be computed here) is named with the reason in `failed`, and the rest go on.
 */
export async function renderThumbnails(run: ThumbnailRun): Promise<string[]> {
  const pluginsDir = resolve(run.pluginsDir);
  const plugins = readdirSync(pluginsDir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .flatMap((entry): { name: string; runtime: 'node' | 'python' }[] => {
      if (existsSync(join(pluginsDir, entry.name, 'index.ts'))) return [{ name: entry.name, runtime: 'node' }];
      if (existsSync(join(pluginsDir, entry.name, 'plugin.py'))) return [{ name: entry.name, runtime: 'python' }];
      return [];
    })
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  const written: string[] = [];
  for (const { name, runtime } of plugins) {
    const source = await sourceOf(join(pluginsDir, name), runtime, resolve(run.specimensDir));
    try {
      for (const specimen of source.specimens) {
        if (run.filters.length > 0 && !run.filters.includes(name) && !run.filters.includes(specimen.id)) continue;
        if (specimen.thumbnail?.startsWith('data:')) {
          run.log(`${name}/${specimen.id}: declares a data: URI thumbnail, left as it is`);
          continue;
        }
        const started = performance.now();
        let result: SpecimenResult;
        try {
          result = await source.compute(specimen.function_name);
        } catch (error) {
          const why = `${name}/${specimen.id}: not rendered: ${(error as Error).message}`;
          run.log(why);
          run.failed?.(why);
          continue;
        }
        const computed = performance.now() - started;
        const png = encodePng({ width: SIZE, height: SIZE, channels: 3, data: toBytes(renderResult(specimen.id, result, SIZE)) });
        const target = join(pluginsDir, name, specimen.thumbnail ?? `thumbnails/${specimen.id}.png`);
        mkdirSync(dirname(target), { recursive: true });
        writeFileSync(target, png);
        written.push(target);
        run.log(`${name}/${specimen.id}: computed in ${computed.toFixed(0)} ms, ${png.length} bytes -> ${target}`);
      }
    } finally {
      source.close();
    }
  }
  return written;
}
