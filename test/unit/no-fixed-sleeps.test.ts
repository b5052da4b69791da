/**
 * Tests wait on conditions, never on fixed sleeps: a sleep that waits "long enough" passes on
 * a quiet machine and fails on a loaded one (or passes while proving nothing). This scans the
 * test tree for timer-based sleeps and for polling that re-arms its own timer; the one place
 * allowed to sleep between polls is helpers/wait-for.ts (`waitFor`, with a deadline). Code that
 * is slow on purpose (a fixture function's work, a consumer that reads slowly) says so with
 * "not a wait" in a comment on the line or the line above. Benchmarks (test/bench) time
 * things by design and are left out.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const TEST_ROOT = fileURLToPath(new URL('..', import.meta.url));
const SKIPPED = new Set(['bench', path.join('helpers', 'wait-for.ts')]);
const SOURCE = /\.(ts|mts|cts|js|mjs|cjs)$/;
const EXEMPT = /not a wait/i;

/** A global timer (not a socket's idle timeout) whose callback is a bare name (a promise's resolve, or a poll re-arming itself). */
const BARE_CALLBACK = /(?<![.\w$])setTimeout\(\s*[A-Za-z_$][\w$]*\s*,/;
/** A timer whose callback only calls a bare name: `() => resolve()`. */
const ARROW_TO_NAME = /(?<![.\w$])setTimeout\(\s*\(\)\s*=>\s*[A-Za-z_$][\w$]*\(\)\s*,/;
/** The promise flavour of setTimeout, a sleep by another name. */
const TIMERS_PROMISES = /['"](node:)?timers\/promises['"]/;

/** `file:line` of every fixed sleep in `text` (lines marked "not a wait" excepted). */
function fixedSleeps(file: string, text: string): string[] {
  const lines = text.split('\n');
  const found: string[] = [];
  lines.forEach((line, i) => {
    if (!BARE_CALLBACK.test(line) && !ARROW_TO_NAME.test(line) && !TIMERS_PROMISES.test(line)) return;
    if (EXEMPT.test(line) || EXEMPT.test(lines[i - 1] ?? '')) return;
    found.push(`${file}:${i + 1}: ${line.trim()}`);
  });
  return found;
}

function sourceFiles(dir: string, relative = ''): string[] {
  const files: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const rel = path.join(relative, entry.name);
    if (SKIPPED.has(rel) || entry.name === 'node_modules' || entry.name.startsWith('.')) continue;
    if (entry.isDirectory()) files.push(...sourceFiles(path.join(dir, entry.name), rel));
    else if (SOURCE.test(entry.name)) files.push(rel);
  }
  return files;
}

describe('no fixed sleeps in tests', () => {
  it('recognises the sleeps it is meant to forbid, and the marked exceptions', () => {
    // Written in pieces so that this file does not hold the forms it looks for.
    const timer = 'set' + 'Timeout';
    const promises = 'timers' + '/promises';
    const text = [
      `await new Promise((resolve) => ${timer}(resolve, 200));`,
      `await new Promise((r) => ${timer}(r, 25));`,
      `const check = () => (done ? resolve() : ${timer}(check, 20));`,
      `await new Promise<void>((resolve) => ${timer}(() => resolve(), 50));`,
      `import { ${timer} as sleep } from 'node:${promises}';`,
      `${timer}(() => socket.resume(), 10);`,
      `socket.${timer}(timeoutMs, () => done(false));`,
      `const timer = ${timer}(() => reject(new Error('late')), limit);`,
      `await new Promise((resolve) => ${timer}(resolve, ms)); // the function's slow work, not a wait`,
      '// One step of the slow work, not a wait.',
      `await new Promise((resolve) => ${timer}(resolve, ms));`,
    ].join('\n');
    expect(fixedSleeps('sample.ts', text).map((hit) => hit.split(': ')[0])).toEqual([
      'sample.ts:1',
      'sample.ts:2',
      'sample.ts:3',
      'sample.ts:4',
      'sample.ts:5',
    ]);
  });

  it('finds none under test/ (outside test/bench and helpers/wait-for.ts)', () => {
    const files = sourceFiles(TEST_ROOT);
    expect(files).toContain(path.join('unit', 'no-fixed-sleeps.test.ts'));
    const found = files.flatMap((file) => fixedSleeps(path.join('test', file), readFileSync(path.join(TEST_ROOT, file), 'utf8')));
    expect(found, 'wait on a condition (helpers/wait-for.ts) or use fake timers instead').toEqual([]);
  });
});
