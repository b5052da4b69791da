/**
 * @module dev.bench
 * The `vitrine dev` loop: from writing a changed plugin file to its new manifest being live
 * (the host's `reload` event received over SSE and the changed default read back from the
 * schema route), with one one-function plugin in SRC and with 50 more four-function plugins
 * beside it. Runs the compiled CLI, as an installed package does. Targets: under 300 ms for
 * the single plugin, under 1 s with 50 plugins present.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { spawnHost } from '../helpers/spawn-host.ts';
import { openStream } from '../helpers/sse-reader.ts';
import { pluginSource } from './build.bench.ts';
import { median } from './startup.bench.ts';

const REPO = fileURLToPath(new URL('../..', import.meta.url));
const BIN = path.join(REPO, 'build/dist/core/cli/bin.js');
const ROUNDS = 11;

function edited(value: number): string {
  return `import type { MeshResult } from 'vitrine';
/** One triangle. */
export function edited_mesh(size = ${value}): MeshResult {
  return { vertices: new Float32Array([0, 0, 0, size, 0, 0, 0, size, 0]), indices: new Uint32Array([0, 1, 2]) };
}
`;
}

async function measure(others: number): Promise<number[]> {
  const root = mkdtempSync(path.join(tmpdir(), 'vitrine-bench-dev-'));
  const file = path.join(root, 'plugins', 'edited', 'index.ts');
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, edited(0));
  for (let index = 0; index < others; index++) {
    const dir = path.join(root, 'plugins', `plugin${index}`);
    mkdirSync(dir, { recursive: true });
    writeFileSync(path.join(dir, 'index.ts'), pluginSource(index));
    writeFileSync(path.join(dir, 'helper.ts'), 'export const scale = (n: number): number => n * 2;\n');
  }
  const dev = await spawnHost(['plugins', '--port', '0', '--specimens', 'none', '--pool-size', '1', '--log-level', 'warn'], {
    cwd: root,
    cli: BIN,
    command: 'dev',
  });
  const events = await openStream(`${dev.url}/api/events`);
  const times: number[] = [];
  try {
    for (let round = 1; round <= ROUNDS; round++) {
      const from = events.events.length;
      const started = performance.now();
      writeFileSync(file, edited(round));
      await events.next((e) => e.event === 'reload' && (e.data as { plugin?: string }).plugin === 'edited', from);
      const schema = (await (await fetch(`${dev.url}/api/processing/functions/edited_mesh/schema`)).json()) as { properties: { size: { default: number } } };
      if (schema.properties.size.default !== round) throw new Error(`round ${round}: the schema still shows ${schema.properties.size.default}`);
      times.push(performance.now() - started);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  } finally {
    events.close();
    await dev.stop();
  }
  // The first save also warms the type checker's view of the plugin; report the steady state.
  return times.slice(1);
}

export async function run(): Promise<{ name: string; lines: string[] }> {
  execFileSync('npm', ['run', '--silent', 'compile'], { cwd: REPO, stdio: 'ignore' });
  const fmt = (values: number[]) => `median ${median(values).toFixed(0)} ms (min ${Math.min(...values).toFixed(0)}, max ${Math.max(...values).toFixed(0)})`;
  const single = await measure(0);
  const fifty = await measure(50);
  return {
    name: `vitrine dev: save to new manifest live (reload event + schema read back), ${ROUNDS - 1} saves after a first`,
    lines: [`1 plugin, 1 function:                 ${fmt(single)}   target < 300 ms`, `same plugin with 50 other plugins:    ${fmt(fifty)}   target < 1000 ms`],
  };
}
