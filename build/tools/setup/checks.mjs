/**
 * The checks `npm test` runs before its tests, at once rather than one after another: the type
 * check, the TypeScript lint, the import-cycle check, the Python gate, the package's compile and
 * the example plugins' build (then its `--check`) are each a process of their own, most bound to
 * one core, and the suite runs on two: side by side they end when the longest does, not when
 * the sum would. Each one's output is printed whole when it ends (never interleaved); the first
 * failure is the exit code, after every check has ended.
 */
import { runCollected } from './run-collected.mjs';

const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const vitrine = (...args) => [process.execPath, ['core/cli/vitrine.mjs', ...args]];
const script = (name) => [npm, ['run', '--silent', name]];

/** Each check: its name, and the commands it runs in turn (a later one only if the earlier passed). */
const CHECKS = [
  ['lint:ts', [script('lint:ts')]],
  ['typecheck', [script('typecheck')]],
  ['compile', [script('compile')]],
  ['cycles', [script('cycles')]],
  ['lint:python', [script('lint:python')]],
  ['vitrine build, then --check', [vitrine('build'), vitrine('build', '--check')]],
];

async function run([name, commands]) {
  const started = Date.now();
  const out = [];
  let code = 0;
  for (const command of commands) if ((code = await runCollected(...command, out)) !== 0) break;
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  process.stdout.write(`\n> ${name} (${code === 0 ? 'passed' : `failed, exit ${code}`}, ${seconds} s)\n`);
  process.stdout.write(Buffer.concat(out));
  return code;
}

const codes = await Promise.all(CHECKS.map(run));
process.exitCode = codes.find((code) => code !== 0) ?? 0;
