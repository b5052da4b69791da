/**
 * @module typecheck
 * `npm run typecheck`: the strict type check of the host, tests and tools (tsconfig.json, Node's
 * types) and of the viewer on its own (viewer/tsconfig.json, the DOM's and no Node's), side by
 * side, with the `tsc` tsc-path.mjs picks (TypeScript's native compiler where it is installed).
 * Each project's output is printed whole when it ends; the exit code is the first failure's.
 *
 * Usage: `node build/tools/lint/typecheck.mjs [--classic]` (`--classic`: TypeScript 5's tsc).
 */
import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { tscPath } from '../setup/tsc-path.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const PROJECTS = ['tsconfig.json', 'viewer/tsconfig.json'];
const tsc = tscPath(ROOT, process.argv.includes('--classic'));

function check(project) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [tsc, '--noEmit', '-p', project], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    const out = [];
    child.stdout.on('data', (chunk) => out.push(chunk));
    child.stderr.on('data', (chunk) => out.push(chunk));
    child.on('error', (error) => out.push(Buffer.from(`${error.message}\n`)));
    child.on('close', (code) => {
      process.stdout.write(Buffer.concat(out));
      resolve(code ?? 1);
    });
  });
}

const codes = await Promise.all(PROJECTS.map(check));
process.exitCode = codes.find((code) => code !== 0) ?? 0;
