/**
 * `vitrine init DIR [--vitrine SPEC]`: the files it writes, the dependency spec (the running
 * version, a range, or a local tarball as a path relative to the project), and refusals.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runVitrine, tempDir } from '../build/helpers/run-cli.ts';

const OWN = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string };

function pkgOf(dir: string): { dependencies: Record<string, string>; scripts: Record<string, string> } {
  return JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8'));
}

describe('vitrine init', () => {
  it('writes the project depending on the running version, and a plugin that builds', async () => {
    const cwd = tempDir('vitrine-init-');
    const run = await runVitrine(['init', 'Wave Lab'], cwd);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/npm install\n\s+npm test\n\s+npx vitrine dev/);
    const dir = path.join(cwd, 'Wave Lab');
    expect(pkgOf(dir).dependencies.vitrine).toBe(`^${OWN.version}`);
    expect(pkgOf(dir).scripts.test).toMatch(/--test/);
    for (const file of ['tsconfig.json', 'plugins/wave-lab/index.ts', 'test/wave-lab.test.ts', 'README.md']) {
      expect(readFileSync(path.join(dir, file), 'utf8').length).toBeGreaterThan(0);
    }
    const build = await runVitrine(['build', 'plugins', '--out', path.join(cwd, 'out')], dir);
    expect(build.stdout).toMatch(/wave-lab: 1 function, 1 specimen/);
  });

  it('writes --vitrine as given, or as a path relative to the project when it names a file', async () => {
    const cwd = tempDir('vitrine-init-');
    writeFileSync(path.join(cwd, 'vitrine-9.9.9.tgz'), '');
    expect((await runVitrine(['init', 'a', '--vitrine', './vitrine-9.9.9.tgz'], cwd)).code).toBe(0);
    expect(pkgOf(path.join(cwd, 'a')).dependencies.vitrine).toBe('file:../vitrine-9.9.9.tgz');
    expect((await runVitrine(['init', 'b', '--vitrine=~0.1.0'], cwd)).code).toBe(0);
    expect(pkgOf(path.join(cwd, 'b')).dependencies.vitrine).toBe('~0.1.0');
  });

  it('refuses a folder that is not empty and a missing DIR, exit 2', async () => {
    const cwd = tempDir('vitrine-init-');
    writeFileSync(path.join(cwd, 'keep.txt'), 'mine');
    const full = await runVitrine(['init', '.'], cwd);
    expect(full.code).toBe(2);
    expect(full.stderr).toMatch(/is not empty/);
    expect(readFileSync(path.join(cwd, 'keep.txt'), 'utf8')).toBe('mine');
    const none = await runVitrine(['init'], cwd);
    expect(none.code).toBe(2);
    expect(none.stderr).toMatch(/DIR is missing/);
  });
});
