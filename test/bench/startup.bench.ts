/**
 * @module startup.bench
 * `vitrine serve` time-to-listening (spawn to the `listening on` line) on the example plugins
 * and specimens: the compiled package (`build/dist/core/cli/bin.js`, plain Node) against the
 * TypeScript sources run through tsx's loader (`core/cli/vitrine.mjs`, how serve ran before
 * the package was compiled). Rounds alternate between the two; medians are reported.
 */
import { execFileSync, spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const REPO = fileURLToPath(new URL('../..', import.meta.url));
const COMPILED = path.join(REPO, 'build/dist/core/cli/bin.js');
const SOURCES = path.join(REPO, 'core/cli/vitrine.mjs');
const ROUNDS = 7;

/** Milliseconds from spawn to `listening on`; the host is stopped afterwards. */
export function timeToListening(bin: string, args: string[], cwd = REPO): Promise<number> {
  const started = performance.now();
  const serve = [bin, 'serve', '--port', '0', '--log-level', 'warn', '--data-dir', 'none', ...args];
  const child = spawn(process.execPath, serve, { cwd, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stderr.on('data', (d: Buffer) => (err += d.toString()));
  return new Promise((resolve, reject) => {
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString();
      if (!out.includes('listening on')) return;
      const ms = performance.now() - started;
      child.once('exit', () => resolve(ms));
      child.kill('SIGTERM');
    });
    child.once('exit', (code) => {
      if (!out.includes('listening on')) reject(new Error(`serve exited with ${code}: ${err}`));
    });
  });
}

export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? NaN;
}

export async function run(): Promise<{ name: string; lines: string[] }> {
  execFileSync('npm', ['run', '--silent', 'compile'], { cwd: REPO, stdio: 'ignore' });
  execFileSync(process.execPath, [COMPILED, 'build'], { cwd: REPO, stdio: 'ignore' });
  const args = ['--plugins', 'build/out', '--specimens', 'specimens'];
  const compiled: number[] = [];
  const sources: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    compiled.push(await timeToListening(COMPILED, args));
    sources.push(await timeToListening(SOURCES, args));
  }
  const fmt = (values: number[]) => `median ${median(values).toFixed(0)} ms (min ${Math.min(...values).toFixed(0)}, max ${Math.max(...values).toFixed(0)})`;
  return {
    name: `vitrine serve time-to-listening, 6 example plugins + 5 specimens, ${ROUNDS} rounds`,
    lines: [
      `compiled package (plain node):      ${fmt(compiled)}`,
      `TypeScript sources through tsx:     ${fmt(sources)}`,
      `ratio compiled / sources:           ${(median(compiled) / median(sources)).toFixed(2)}`,
    ],
  };
}
