/**
 * `vitrine build --against`: in a real git repository of a project `vitrine init` wrote, a
 * breaking change against `git:HEAD~1` exits 1 with lines pointing at the source, and the
 * verdict points at the plugin's own version: a package.json made in its folder with its name
 * and the version it had (the project's package.json, shared by every plugin, is left as it
 * was); it exits 0 once that major version went up; `--format json`; a Python plugin compared
 * with a previous build's output folder; an earlier build that cannot be had exits 2.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { runVitrine, tempDir, writeFiles } from '../build/helpers/run-cli.ts';
import { samplePythonPlugin } from '../build/helpers/python-plugin.ts';
import { TEST_PYTHON } from '../helpers/test-python.ts';

function git(cwd: string, ...args: string[]): string {
  return execFileSync('git', ['-c', 'user.name=Test', '-c', 'user.email=test@example.com', ...args], { cwd, encoding: 'utf8' });
}

function edit(file: string, change: (text: string) => string): void {
  writeFileSync(file, change(readFileSync(file, 'utf8')));
}

/** The module `type` of the project's package.json, as `{type}` when it states one. */
function typeAbove(project: string): { type?: string } {
  const type = (JSON.parse(readFileSync(path.join(project, 'package.json'), 'utf8')) as { type?: string }).type;
  return type === undefined ? {} : { type };
}

/** The line number of the first line of `file` containing `text`. */
function lineOf(file: string, text: string): number {
  return readFileSync(file, 'utf8').split('\n').findIndex((line) => line.includes(text)) + 1;
}

describe('vitrine build --against git:<ref> in a scaffolded project', () => {
  let project: string;
  let plugin: string;
  let out: string;

  beforeAll(async () => {
    const cwd = tempDir('vitrine-against-');
    expect((await runVitrine(['init', 'lab'], cwd)).code).toBe(0);
    project = path.join(cwd, 'lab');
    plugin = path.join(project, 'plugins/lab/index.ts');
    out = path.join(cwd, 'out');
    git(project, 'init', '-q');
    git(project, 'add', '-A');
    git(project, 'commit', '-qm', 'ripple');
    // Rename a parameter (breaking), change a default (changes-results), raise a maximum (compatible).
    edit(plugin, (text) =>
      text.replaceAll('wavelength', 'crest').replace('amplitude = 0.15', 'amplitude = 0.2').replace('@range segments 2 256', '@range segments 2 512'));
    git(project, 'commit', '-qam', 'rename wavelength');
  });

  it('a breaking change exits 1, each change on its own line at its source line', async () => {
    const run = await runVitrine(['build', '--against', 'git:HEAD~1', '--out', out], project);
    expect(run.code).toBe(1);
    const signature = lineOf(plugin, 'export function ripple');
    expect(run.stdout).toContain(`plugins/lab/index.ts:${signature}: breaking: parameter 'wavelength' of 'ripple' renamed to 'crest'\n`);
    expect(run.stdout).toContain(`plugins/lab/index.ts:${signature}: changes-results: default of 'amplitude' of 'ripple' changed from 0.15 to 0.2\n`);
    const tag = lineOf(plugin, '@range segments');
    expect(run.stdout).toContain(`plugins/lab/index.ts:${tag}: compatible: maximum of 'segments' of 'ripple' raised from 256 to 512\n`);
    expect(run.stdout).toMatch(/1 function compared: 1 breaking, 1 changes-results, 1 compatible/);
    const verdict =
      'lab: 1 breaking change and version 0.1.0 → 0.1.0: raise its major version (to 1.0.0): "version" in plugins/lab/package.json ' +
      "(made now: 0.1.0 from package.json, which is not the plugin's own), or undo them";
    expect(run.stderr).toContain(verdict);
    // The plugin's own package.json, made with its name and the version it had, the module type of the one above.
    const own = JSON.parse(readFileSync(path.join(project, 'plugins/lab/package.json'), 'utf8')) as Record<string, unknown>;
    expect(own).toEqual({ name: 'lab', version: '0.1.0', private: true, ...typeAbove(project) });
    // The repository is as it was but for that file: no worktree, nothing checked out, the project's package.json untouched.
    expect(git(project, 'status', '--porcelain')).toBe('?? plugins/lab/package.json\n');
    expect(git(project, 'worktree', 'list').trim().split('\n')).toHaveLength(1);
    // Asked again, the verdict points at the file it made, which it leaves as it is.
    const again = await runVitrine(['build', '--against', 'git:HEAD~1', '--out', out], project);
    expect(again.code).toBe(1);
    expect(again.stderr).toContain('raise its major version (to 1.0.0): "version" in plugins/lab/package.json, or undo them');
    expect(JSON.parse(readFileSync(path.join(project, 'plugins/lab/package.json'), 'utf8'))).toEqual(own);
    const json = await runVitrine(['build', '--against', 'git:HEAD~1', '--out', out, '--format', 'json'], project);
    expect(json.code).toBe(1);
    expect((JSON.parse(json.stdout) as { plugins: unknown[] }).plugins).toEqual([
      {
        plugin: 'lab', from: '0.1.0', to: '0.1.0', major_bumped: false, breaking: 1, allowed: false,
        version_file: 'plugins/lab/package.json', version_file_made: false,
      },
    ]);
  });

  it("the same change with the plugin's own major version raised exits 0, also as JSON", async () => {
    const pkg = path.join(project, 'plugins/lab/package.json');
    const original = readFileSync(pkg, 'utf8');
    edit(pkg, (text) => text.replace('"version": "0.1.0"', '"version": "1.0.0"'));
    try {
      const run = await runVitrine(['build', '--against', 'git:HEAD~1', '--out', out], project);
      expect(run.code).toBe(0);
      expect(run.stdout).toContain("breaking: parameter 'wavelength' of 'ripple' renamed to 'crest'");
      expect(run.stdout).toContain('lab: 1 breaking change, allowed by the major version 0.1.0 → 1.0.0');

      const json = await runVitrine(['build', '--against', 'git:HEAD~1', '--out', out, '--format', 'json'], project);
      expect(json.code).toBe(0);
      const document = JSON.parse(json.stdout) as Record<string, unknown>;
      expect(document).toMatchObject({
        against: 'git:HEAD~1',
        failed: false,
        functions: 1,
        counts: { breaking: 1, 'changes-results': 1, compatible: 1 },
        plugins: [{ plugin: 'lab', from: '0.1.0', to: '1.0.0', major_bumped: true, breaking: 1, allowed: true }],
      });
      expect(document['changes']).toContainEqual({
        class: 'breaking', kind: 'parameter-renamed', plugin: 'lab', function: 'ripple', parameter: 'crest',
        what: "parameter 'wavelength' of 'ripple' renamed to 'crest'", file: 'plugins/lab/index.ts', line: lineOf(plugin, 'export function ripple'),
      });
      expect(json.stderr).toMatch(/built 1 plugin/);
    } finally {
      writeFileSync(pkg, original);
    }
  });

  it('against HEAD, nothing changed: exit 0; an unknown ref or folder: exit 2', async () => {
    const same = await runVitrine(['build', '--against', 'git:HEAD', '--out', path.join(out, '..', 'out-same')], project);
    expect(same.stdout).toMatch(/1 function compared: no changes/);
    expect(same.code).toBe(0);
    const unknown = await runVitrine(['build', '--against', 'git:no-such-branch'], project);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain("vitrine build --against: unknown git revision 'no-such-branch'");
    const missing = await runVitrine(['build', '--against', 'no-such-folder'], project);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/no-such-folder is not a build output folder/);
    const format = await runVitrine(['build', '--format', 'json'], project);
    expect(format.code).toBe(2);
  });
});

describe('vitrine build --against DIR with a Python plugin', () => {
  it('compares with a previous build output: a default changed exits 0, an enum value removed exits 1', async () => {
    const root = tempDir('vitrine-against-py-');
    const src = path.join(root, 'plugins');
    const before = path.join(root, 'before');
    writeFiles(src, samplePythonPlugin('1.5'));
    const env = { VITRINE_PYTHON: TEST_PYTHON };
    expect((await runVitrine(['build', src, '--out', before], root, env)).code).toBe(0);

    writeFiles(src, samplePythonPlugin('2.5'));
    const entry = path.join(src, 'waves/plugin.py');
    const soft = await runVitrine(['build', src, '--out', path.join(root, 'now'), '--against', before], root, env);
    const radius = lineOf(entry, 'radius:');
    expect(soft.stdout).toContain(`plugins/waves/plugin.py:${radius}: changes-results: default of 'radius' of 'wave' changed from 1.5 to 2.5\n`);
    expect(soft.code).toBe(0);

    edit(entry, (text) => text.replace('Literal["fast", "fine"]', 'Literal["fast"]').replace('segments: int = 32', 'segments: float = 32'));
    const hard = await runVitrine(['build', src, '--out', path.join(root, 'now'), '--against', before], root, env);
    expect(hard.stdout).toContain(`plugins/waves/plugin.py:${lineOf(entry, 'mode:')}: breaking: value 'fine' of 'mode' of 'wave' removed\n`);
    const segments = lineOf(entry, 'segments:');
    expect(hard.stdout).toContain(`plugins/waves/plugin.py:${segments}: compatible: type of 'segments' of 'wave' widened from int to float\n`);
    expect(hard.code).toBe(1);
    // The plugin states no version: the verdict says where to state one.
    expect(hard.stderr).toContain(`raise its major version (to 1.0.0): add __version__ = "1.0.0" to plugins/waves/plugin.py, or undo them`);
    edit(entry, (text) => `__version__ = "0.2.0"\n${text}`);
    const stated = await runVitrine(['build', src, '--out', path.join(root, 'now'), '--against', before], root, env);
    expect(stated.stderr).toContain(`version 0.0.0 → 0.2.0: raise its major version (to 1.0.0): __version__ in plugins/waves/plugin.py, or undo them`);
  });
});
