/**
 * @module test-file-run
 * Runs one test file under vitest with its round count raised, for the benchmarks that are a
 * test at its full count (kill-log, kill-restart): the test's assertions decide, and what it
 * printed is the figure. A failure is given with vitest's own account of it.
 */
import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { stripVTControlCharacters } from 'node:util';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/** vitest on `file` with `env` added; resolves with its exit code and output. */
function runVitest(file: string, env: Record<string, string>): Promise<{ code: number | null; output: string }> {
  const vitest = path.join(root, 'node_modules/.bin/vitest');
  const args = ['run', '--config', 'test/vitest.config.ts', file];
  const child = spawn(vitest, args, { cwd: root, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (text: Buffer) => void (output += text.toString()));
  child.stderr.on('data', (text: Buffer) => void (output += text.toString()));
  return new Promise((resolve) => child.once('exit', (code) => resolve({ code, output })));
}

/** The lines of `file`'s run that `printed` matches, then vitest's account of a failure. */
export async function testFileLines(file: string, env: Record<string, string>, printed: RegExp): Promise<string[]> {
  const { code, output } = await runVitest(file, env);
  const plain = stripVTControlCharacters(output).split('\n');
  const failure = plain.filter((line) => /FAIL|AssertionError|Error:|×/.test(line));
  return [...plain.filter((line) => printed.test(line)), ...(code === 0 ? [] : [`vitest ended with ${code}:`, ...failure.slice(0, 20)])];
}
