/**
 * @module dev-served.bench
 * The `vitrine dev` loop as a user sees it: from writing a changed plugin file to the host
 * serving the new result (a `/data` request answering the changed geometry; polled as a
 * viewer or script would ask again, no event stream), beside the `reloaded <plugin> in N ms`
 * line the host prints for the same save. One one-function plugin with a specimen; the
 * compiled CLI, as an installed package runs.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { decodeEnvelope } from '../../core/envelope/decode-envelope.ts';
import { spawnHost } from '../helpers/spawn-host.ts';
import { median } from './startup.bench.ts';

const REPO = fileURLToPath(new URL('../..', import.meta.url));
const BIN = path.join(REPO, 'build/dist/core/cli/bin.js');
const ROUNDS = 11;

function source(size: number): string {
  return `import type { MeshResult } from 'vitrine';
/** One triangle. */
export function edited_mesh(size = ${size}): MeshResult {
  return { vertices: new Float32Array([0, 0, 0, size, 0, 0, 0, size, 0]), indices: new Uint32Array([0, 1, 2]) };
}
export const specimens = [{ id: 'edited', function: 'edited_mesh', display_name: 'Edited' }];
`;
}

/** The x of the triangle's second vertex as the host serves it now. */
async function servedSize(url: string): Promise<number> {
  const bytes = new Uint8Array(await (await fetch(`${url}/api/specimens/edited/data`)).arrayBuffer());
  const mesh = decodeEnvelope(bytes);
  return mesh.type === 'mesh' ? mesh.vertices[3]! : Number.NaN;
}

export async function run(): Promise<{ name: string; lines: string[] }> {
  execFileSync('npm', ['run', '--silent', 'compile'], { cwd: REPO, stdio: 'ignore' });
  const root = mkdtempSync(path.join(tmpdir(), 'vitrine-bench-dev-served-'));
  const file = path.join(root, 'plugins', 'edited', 'index.ts');
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, source(1));
  const dev = await spawnHost(['plugins', '--port', '0', '--specimens', 'none', '--pool-size', '1', '--log-level', 'warn'], {
    cwd: root,
    cli: BIN,
    command: 'dev',
  });
  const served: number[] = [];
  const printed: number[] = [];
  try {
    for (let round = 2; round <= ROUNDS + 1; round++) {
      const from = dev.stdout().length;
      const started = performance.now();
      writeFileSync(file, source(round));
      while ((await servedSize(dev.url)) !== round) {
        if (performance.now() - started > 10_000) throw new Error(`round ${round}: the new result was not served within 10 s`);
      }
      served.push(performance.now() - started);
      // The host's own line for this save, once printed.
      let line: RegExpExecArray | null = null;
      while (!(line = /reloaded edited in (\d+) ms/.exec(dev.stdout().slice(from)))) await new Promise((resolve) => setTimeout(resolve, 5));
      printed.push(Number(line[1]));
    }
  } finally {
    await dev.stop();
  }
  // The first save also warms the type checker's view of the plugin; report the steady state.
  const fmt = (values: number[]) =>
    `median ${median(values.slice(1)).toFixed(0)} ms (min ${Math.min(...values.slice(1)).toFixed(0)}, max ${Math.max(...values.slice(1)).toFixed(0)})`;
  return {
    name: `vitrine dev: save to new result served (GET /data answers the change), ${ROUNDS - 1} saves after a first`,
    lines: [`save -> new result served:        ${fmt(served)}`, `host printed "reloaded in N ms":  ${fmt(printed)}`],
  };
}
