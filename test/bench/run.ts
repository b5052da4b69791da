/**
 * @module run
 * The benchmark runner (`npm run bench [filter]`): imports every `test/bench/*.bench.ts`
 * (or those whose file name contains the filter) one after another, calls its
 * `run(): Promise<{ name, lines }>`, and prints the lines. Benchmarks run sequentially so
 * they do not compete for the machine's cores.
 *
 * `npm run bench` compiles first and sets VITRINE_TEST_CLI=compiled, so every host, worker
 * and build the benchmarks spawn is the compiled command that `npm start` and the installed
 * package run (test/helpers/cli-path.ts), not the TypeScript sources through tsx's loader.
 */
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { runFileEnd } from '../helpers/file-end.ts';

interface BenchModule {
  run(): Promise<{ name: string; lines: string[] }>;
}

const benchDir = path.dirname(fileURLToPath(import.meta.url));
const filter = process.argv[2] ?? '';
const files = readdirSync(benchDir)
  .filter((file) => file.endsWith('.bench.ts') && file.includes(filter))
  .sort();

if (files.length === 0) {
  process.stderr.write(`no benchmark in ${benchDir} matches '${filter}'\n`);
  process.exitCode = 1;
}
for (const file of files) {
  const started = performance.now();
  const bench = (await import(pathToFileURL(path.join(benchDir, file)).href)) as BenchModule;
  // What the bench's helpers started or made (hosts, servers, their data folders) ends with it,
  // as it does with a test file: a host's data folder can hold a whole 512³ result.
  const { name, lines } = await bench.run().finally(runFileEnd);
  process.stdout.write(`\n## ${name} (${file}, ${((performance.now() - started) / 1000).toFixed(1)} s)\n`);
  for (const line of lines) process.stdout.write(`${line}\n`);
}
