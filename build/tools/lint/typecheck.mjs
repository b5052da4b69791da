/**
 * @module typecheck
 * `npm run typecheck`: the strict type check of the host, tests and tools (tsconfig.json, Node's
 * types) and of the viewer on its own (viewer/tsconfig.json, the DOM's and no Node's), side by
 * side, with the `tsc` tsc-path.mjs picks (TypeScript's native compiler where it is installed).
 * Each project's output is printed whole when it ends; the exit code is the first failure's.
 *
 * Usage: `node build/tools/lint/typecheck.mjs [--classic]` (`--classic`: TypeScript 5's tsc).
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { runCollected } from '../setup/run-collected.mjs';
import { tscPath } from '../setup/tsc-path.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const PROJECTS = ['tsconfig.json', 'viewer/tsconfig.json'];
const tsc = tscPath(ROOT, process.argv.includes('--classic'));

async function check(project) {
  const out = [];
  const code = await runCollected(process.execPath, [tsc, '--noEmit', '-p', project], out, { cwd: ROOT });
  process.stdout.write(Buffer.concat(out));
  return code;
}

const codes = await Promise.all(PROJECTS.map(check));
process.exitCode = codes.find((code) => code !== 0) ?? 0;
