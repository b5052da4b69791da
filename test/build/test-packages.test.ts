/**
 * The first step of `npm test`: the Debian packages the suite needs, all named at once. Missing
 * ones are installed when the step may (root), else one line names every one and the step
 * fails; with nothing missing it does nothing. The real script, on a PATH holding only node,
 * names the packages whose commands it cannot find and exits 1 before anything else runs.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { missingLine, setUp, type Need } from '../../build/tools/setup/test-packages.mjs';
import { REPO } from '../helpers/cli-path.ts';

/** Needs met by what `installed` holds. */
function needsOver(installed: Set<string>): Need[] {
  const groups = [['chromium'], ['redis-server'], ['python3', 'python3-numpy']];
  return groups.map((packages) => ({ packages, present: () => packages.every((p) => installed.has(p)) }));
}

describe('the test set-up step', () => {
  it('does nothing when every package is there', () => {
    const said: string[] = [];
    const all = new Set(['chromium', 'redis-server', 'python3', 'python3-numpy']);
    const code = setUp({ needs: needsOver(all), mayInstall: true, install: () => 9, say: (l) => said.push(l) });
    expect([code, said]).toEqual([0, []]);
  });

  it('names every missing package in one line when it may not install', () => {
    const said: string[] = [];
    const code = setUp({ needs: needsOver(new Set(['redis-server'])), mayInstall: false, install: () => 0, say: (l) => said.push(l) });
    expect(code).toBe(1);
    expect(said).toEqual(['npm test needs these Debian packages first: sudo apt-get install chromium python3 python3-numpy']);
  });

  it('installs what is missing when it may, and fails naming what is still missing', () => {
    const installed = new Set(['redis-server']);
    const asked: string[][] = [];
    const install = (packages: string[]) => (asked.push(packages), packages.filter((p) => p !== 'chromium').forEach((p) => installed.add(p)), 0);
    const said: string[] = [];
    expect(setUp({ needs: needsOver(installed), mayInstall: true, install, say: (l) => said.push(l) })).toBe(1);
    expect(asked).toEqual([['chromium', 'python3', 'python3-numpy']]);
    expect(said).toEqual(['npm test: installing chromium python3 python3-numpy with apt-get', missingLine(['chromium'])]);
    installed.add('chromium');
    expect(setUp({ needs: needsOver(installed), mayInstall: true, install, say: () => {} })).toBe(0);
  });

  it('is the first step of npm test, and on a bare PATH names the packages of every command it misses', () => {
    const scripts = (JSON.parse(readFileSync(path.join(REPO, 'package.json'), 'utf8')) as { scripts: { test: string } }).scripts;
    expect(scripts.test.startsWith('node build/tools/setup/test-packages.mjs && ')).toBe(true);
    const bin = mkdtempSync(path.join(tmpdir(), 'vitrine-path-'));
    symlinkSync(process.execPath, path.join(bin, 'node'));
    const run = spawnSync(path.join(bin, 'node'), ['build/tools/setup/test-packages.mjs', '--check'], { cwd: REPO, encoding: 'utf8', env: { PATH: bin } });
    expect(run.status).toBe(1);
    expect(run.stdout).toBe('');
    const lines = run.stderr.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^npm test needs these Debian packages first: sudo apt-get install /);
    for (const name of ['chromium', 'redis-server', 'swift-proxy', 'jupyter-nbconvert', 'memcached', 'curl']) expect(lines[0]!.split(' ')).toContain(name);
  });
});
