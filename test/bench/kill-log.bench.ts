/**
 * @module kill-log.bench
 * `npm run bench kill-log`: test/durable/kill-log.test.ts at its full count, run once. A host with
 * a data folder is killed with SIGKILL at a random moment under writers of every kind and started
 * again on the folder, KILL_LOG_ROUNDS times (20 unless told; the suite kills once), each room
 * checked against its log after every restart; then the same writers against a full disk. The
 * test's assertions decide; the lines are what it printed: what was answered, 0 missing from room
 * or log, and the median restart. A failure is reported with vitest's account of it.
 */
import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { stripVTControlCharacters } from 'node:util';

const ROUNDS = Number(process.env.KILL_LOG_ROUNDS ?? 20);
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/** vitest on the one test file, with its rounds set; resolves with its exit code and output. */
function runTest(): Promise<{ code: number | null; output: string }> {
  const vitest = path.join(root, 'node_modules/.bin/vitest');
  const args = ['run', '--config', 'test/vitest.config.ts', 'test/durable/kill-log.test.ts'];
  const child = spawn(vitest, args, { cwd: root, env: { ...process.env, VITRINE_LOG_ROUNDS: String(ROUNDS) }, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (text: Buffer) => void (output += text.toString()));
  child.stderr.on('data', (text: Buffer) => void (output += text.toString()));
  return new Promise((resolve) => child.once('exit', (code) => resolve({ code, output })));
}

export async function run(): Promise<{ name: string; lines: string[] }> {
  const { code, output } = await runTest();
  const plain = stripVTControlCharacters(output);
  const printed = plain.split('\n').filter((line) => /^(kill -9, |full disk: )/.test(line));
  const failure = plain.split('\n').filter((line) => /FAIL|AssertionError|Error:|×/.test(line));
  const failed = code === 0 ? [] : [`vitest ended with ${code}:`, ...failure.slice(0, 20)];
  return { name: `kill -9 and a full disk under writers of every kind (${ROUNDS} kills)`, lines: [...printed, ...failed] };
}
