/**
 * @module render-thumbnails
 * Renders the thumbnail of every declared specimen of a plugins folder (`vitrine thumbnails`):
 * builds each plugin as `vitrine/testing` does, runs each declared specimen's function with its
 * defaults as the host would (inputs read from the specimens directory), draws the result with
 * the small software renderers of core/thumbnails/ and writes `<plugin>/thumbnails/<id>.png`
 * (256 × 256), where `vitrine build` finds it without a declaration; a specimen that declares
 * a thumbnail path gets that file written instead.
 */
import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import type { SpecimenResult } from 'vitrine';
import { encodePng } from '../formats/png/encode-png.ts';
import { loadPlugin } from '../testing/index.ts';
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
}

/** Renders the thumbnails `run` names; returns the files written. */
export async function renderThumbnails(run: ThumbnailRun): Promise<string[]> {
  const pluginsDir = resolve(run.pluginsDir);
  const plugins = readdirSync(pluginsDir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && existsSync(join(pluginsDir, entry.name, 'index.ts')))
    .map((entry) => entry.name)
    .sort();
  const written: string[] = [];
  for (const plugin of plugins) {
    const test = await loadPlugin(join(pluginsDir, plugin), { specimens: resolve(run.specimensDir) });
    for (const specimen of test.specimens) {
      if (run.filters.length > 0 && !run.filters.includes(plugin) && !run.filters.includes(specimen.id)) continue;
      if (specimen.thumbnail?.startsWith('data:')) {
        run.log(`${plugin}/${specimen.id}: declares a data: URI thumbnail, left as it is`);
        continue;
      }
      const started = performance.now();
      const result = (await test.call(specimen.function_name, {})).result as SpecimenResult;
      const computed = performance.now() - started;
      const png = encodePng({ width: SIZE, height: SIZE, channels: 3, data: toBytes(renderResult(specimen.id, result, SIZE)) });
      const target = join(pluginsDir, plugin, specimen.thumbnail ?? `thumbnails/${specimen.id}.png`);
      mkdirSync(dirname(target), { recursive: true });
      writeFileSync(target, png);
      written.push(target);
      run.log(`${plugin}/${specimen.id}: computed in ${computed.toFixed(0)} ms, ${png.length} bytes -> ${target}`);
    }
  }
  return written;
}
