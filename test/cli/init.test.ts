/**
 * `vitrine init DIR [--vitrine SPEC] [--python]`: the files it writes, the dependency spec (the
 * running version, a range, or a local tarball as a path relative to the project), a Python
 * project whose plugin builds, and refusals.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { PluginManifest } from '../../core/registry/manifest-types.ts';
import { REPO_ROOT, runVitrine, tempDir } from '../build/helpers/run-cli.ts';
import { TEST_PYTHON } from '../helpers/test-python.ts';

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

  it('--python writes a Python project whose plugin builds, with an npm test that runs unittest with the module on its path', async () => {
    const cwd = tempDir('vitrine-init-');
    const run = await runVitrine(['init', 'Wave Lab', '--python', '--vitrine', '~0.1.0'], cwd);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/npm install\n\s+npm test\n\s+npx vitrine dev/);
    const dir = path.join(cwd, 'Wave Lab');
    const pkg = pkgOf(dir);
    expect(pkg.dependencies.vitrine).toBe('~0.1.0');
    expect(pkg.scripts.test).toBe('vitrine build && PYTHONPATH="$(vitrine python-path)" "${VITRINE_PYTHON:-python3}" -m unittest discover -s test -v');
    expect(existsSync(path.join(dir, 'tsconfig.json'))).toBe(false);
    expect(existsSync(path.join(dir, 'plugins/wave-lab/index.ts'))).toBe(false);
    const test = readFileSync(path.join(dir, 'test/test_wave_lab.py'), 'utf8');
    expect(test).toContain('from vitrine.testing import run');
    expect(test).toContain('"plugins" / "wave-lab" / "plugin.py"');
    expect(readFileSync(path.join(dir, 'README.md'), 'utf8')).toContain('PYTHONPATH="$(npx vitrine python-path)" python3 -m unittest discover -s test -v');
    // Both Python files are valid Python (the plugin is also read by the build below).
    execFileSync(TEST_PYTHON, [
      '-c',
      'import ast, sys; [ast.parse(open(f).read(), f) for f in sys.argv[1:]]',
      path.join(dir, 'test/test_wave_lab.py'),
      path.join(dir, 'plugins/wave-lab/plugin.py'),
    ]);

    const build = await runVitrine(['build', 'plugins', '--out', path.join(cwd, 'out')], dir, { VITRINE_PYTHON: TEST_PYTHON });
    expect(build.stderr).toBe('');
    expect(build.stdout).toMatch(/wave-lab: 1 function, 1 specimen/);
    const manifest = JSON.parse(readFileSync(path.join(cwd, 'out/wave-lab/manifest.json'), 'utf8')) as PluginManifest;
    expect(manifest).toMatchObject({ runtime: 'python', bundle: 'plugin.py', specimens: [{ id: 'ripple', function_name: 'ripple' }] });
    expect(manifest.functions[0]).toMatchObject({ name: 'ripple', return_type: 'mesh', reporter_parameter: 'progress' });
    expect(manifest.functions[0]!.schema).toMatchObject({
      description: 'A square sheet rippling out from its centre, as a triangle mesh.',
      properties: { segments: { type: 'integer', description: 'Grid cells along each side.', default: 64, minimum: 2, maximum: 256 } },
    });
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

  it('lets npm run the install scripts of every package it installs that has one (allowScripts)', async () => {
    const withScripts = installScriptPackages(['vitrine', 'tsx', 'typescript', '@types/node']);
    expect(withScripts).toContain('esbuild');
    for (const python of [false, true]) {
      const cwd = tempDir('vitrine-init-');
      expect((await runVitrine(['init', 'lab', ...(python ? ['--python'] : [])], cwd)).code).toBe(0);
      const written = JSON.parse(readFileSync(path.join(cwd, 'lab', 'package.json'), 'utf8')) as { allowScripts?: Record<string, boolean> };
      const allowed = written.allowScripts ?? {};
      expect(withScripts.filter((name) => allowed[name] !== true), python ? 'the Python project' : 'the TypeScript project').toEqual([]);
    }
  });
});

/**
 * The packages installed with `roots` (this checkout's, as npm installed them) that run a script
 * at install: npm warns of each one a project's `allowScripts` does not list.
 */
function installScriptPackages(roots: string[]): string[] {
  const modules = path.join(REPO_ROOT, 'node_modules');
  const seen = new Set<string>();
  const found: string[] = [];
  const walk = (name: string, dir: string) => {
    if (seen.has(name) || !existsSync(path.join(dir, 'package.json'))) return;
    seen.add(name);
    const pkg = JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8')) as {
      scripts?: Record<string, string>;
      dependencies?: Record<string, string>;
      optionalDependencies?: Record<string, string>;
    };
    const scripts = pkg.scripts ?? {};
    if (scripts.preinstall || scripts.install || scripts.postinstall || existsSync(path.join(dir, 'binding.gyp'))) found.push(name);
    for (const dep of Object.keys({ ...pkg.dependencies, ...pkg.optionalDependencies })) walk(dep, path.join(modules, dep));
  };
  for (const root of roots) walk(root, root === 'vitrine' ? REPO_ROOT : path.join(modules, root));
  return found.sort();
}
