/**
 * @module render-thumbnails
 * Renders the thumbnail of every example specimen: imports each plugin's source, runs each
 * declared specimen's function with its defaults, draws the result with the small software
 * renderers in this folder and writes `plugins/<plugin>/thumbnails/<id>.png` (256 × 256).
 *
 * Usage: `npx tsx build/tools/thumbnails/render-thumbnails.ts [plugin-or-specimen-id ...]`
 */
import { mkdirSync, readdirSync, existsSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { SpecimenDeclaration, SpecimenResult } from 'vitrine';
import { toBytes, type Canvas } from './canvas.ts';
import { encodePng } from './png-encoder.ts';
import { renderImage } from './render-image.ts';
import { renderMesh } from './render-mesh.ts';
import { renderPoints } from './render-points.ts';
import { renderVolume } from './render-volume.ts';
import { DEFAULT_LOOK, LOOKS } from './thumbnail-looks.ts';
import { inputParameters } from '../../../core/inputs/input-types.ts';
import { loadPlugin, type TestPlugin } from '../../../core/testing/index.ts';

const SIZE = 256;
const PLUGINS_DIR = resolve(dirname(fileURLToPath(import.meta.url)), '../../../plugins');

/** Draws any typed result, picking the renderer from its shape. */
export function renderResult(id: string, result: SpecimenResult): Canvas {
  const look = { ...DEFAULT_LOOK, ...LOOKS[id] };
  if ('vertices' in result) return renderMesh(result, SIZE, look.mesh);
  if ('shape' in result) return renderVolume(result, SIZE, look.volume);
  if ('points' in result) return renderPoints(result, SIZE, look.points);
  return renderImage(result, SIZE);
}

const loaded = new Map<string, Promise<TestPlugin>>();

/**
 * The function's result at its defaults. A function taking inputs runs as the host would run
 * it (vitrine/testing), its default inputs read from the repository's specimens directory.
 */
async function atDefaults(plugin: string, name: string, fn: () => unknown): Promise<SpecimenResult> {
  let built = loaded.get(plugin);
  if (!built) loaded.set(plugin, (built = loadPlugin(join(PLUGINS_DIR, plugin), { specimens: join(PLUGINS_DIR, '../specimens') })));
  const test = await built;
  if (inputParameters(test.schema(name)).length === 0) return (await fn()) as SpecimenResult;
  return (await test.call(name, {})).result as SpecimenResult;
}

async function main(filters: string[]): Promise<void> {
  const plugins = readdirSync(PLUGINS_DIR, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && existsSync(join(PLUGINS_DIR, entry.name, 'index.ts')))
    .map((entry) => entry.name)
    .sort();
  for (const plugin of plugins) {
    const module = (await import(pathToFileURL(join(PLUGINS_DIR, plugin, 'index.ts')).href)) as Record<string, unknown>;
    const declared = (module['specimens'] ?? []) as SpecimenDeclaration[];
    for (const specimen of declared) {
      if (filters.length > 0 && !filters.includes(plugin) && !filters.includes(specimen.id)) continue;
      const fn = module[specimen.function];
      if (typeof fn !== 'function') throw new Error(`${plugin}: ${specimen.id} names no exported function ${specimen.function}`);
      const started = performance.now();
      const result = await atDefaults(plugin, specimen.function, fn as () => unknown);
      const computed = performance.now() - started;
      const png = encodePng(SIZE, SIZE, toBytes(renderResult(specimen.id, result)), 3);
      const target = join(PLUGINS_DIR, plugin, specimen.thumbnail ?? `thumbnails/${specimen.id}.png`);
      mkdirSync(dirname(target), { recursive: true });
      writeFileSync(target, png);
      console.log(`${plugin}/${specimen.id}: computed in ${computed.toFixed(0)} ms, ${png.length} bytes → ${target}`);
    }
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  await main(process.argv.slice(2));
}
