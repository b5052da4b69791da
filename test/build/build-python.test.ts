/**
 * `vitrine build` of Python plugins through the real command: the bundle folder (the plugin's
 * own files and manifest.json, nothing an author keeps for themselves), the manifest's runtime,
 * `--check` on Python sources and sibling files, the interpreter from --python or
 * VITRINE_PYTHON, and errors printed as file:line:col like a TypeScript plugin's.
 */
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { PluginManifest } from '../../core/registry/manifest-types.ts';
import { readBundleFolder } from '../../build/output/read-bundle-folder.ts';
import { TEST_PYTHON } from '../helpers/test-python.ts';
import { samplePythonPlugin } from './helpers/python-plugin.ts';
import { runVitrine, sampleShapesPlugin, tempDir, writeFiles } from './helpers/run-cli.ts';

const build = (root: string, ...extra: string[]) => runVitrine(['build', 'src', '--out', 'out', '--python', TEST_PYTHON, ...extra], root);

describe('vitrine build of Python plugins', { timeout: 240_000 }, () => {
  it('writes the plugin files and a python manifest beside a TypeScript plugin', async () => {
    const root = tempDir();
    writeFiles(path.join(root, 'src'), { ...samplePythonPlugin(), ...sampleShapesPlugin() });
    const run = await build(root);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('waves: 1 function, 2 specimens');
    expect(run.stdout).toContain('shapes: 1 function, 2 specimens');

    const files = readBundleFolder(path.join(root, 'out', 'waves'));
    expect([...files.keys()].sort()).toEqual(['data/levels.csv', 'grid.py', 'manifest.json', 'plugin.py', 'thumbnails/ring.png']);
    expect(files.get('plugin.py')!.equals(readFileSync(path.join(root, 'src', 'waves', 'plugin.py')))).toBe(true);
    const text = files.get('manifest.json')!.toString('utf8');
    const manifest = JSON.parse(text) as PluginManifest;
    expect(text).toBe(`${JSON.stringify(manifest, null, 2)}\n`);
    expect(Object.keys(manifest)).toEqual(['$comment', 'manifest_version', 'plugin', 'version', 'runtime', 'bundle', 'files', 'functions', 'specimens']);
    expect(manifest.$comment).toContain('waves/plugin.py');
    expect(manifest).toMatchObject({ plugin: 'waves', runtime: 'python', bundle: 'plugin.py' });
    expect(manifest.functions).toEqual([
      expect.objectContaining({
        name: 'wave',
        return_type: 'mesh',
        async: false,
        parameters: [
          { name: 'radius', kind: 'value' },
          { name: 'mode', kind: 'value' },
          { name: 'segments', kind: 'value' },
          { name: 'progress', kind: 'reporter' },
        ],
        reporter_parameter: 'progress',
        signal_parameter: null,
        source: { file: 'plugin.py', line: 11 },
      }),
    ]);
    expect(manifest.functions[0]!.schema).toMatchObject({
      title: 'wave',
      description: 'A flat ring of points joined into triangles.',
      properties: { radius: { type: 'number', description: 'Ring radius.', default: 1.5, minimum: 0.1, maximum: 10 } },
    });
    expect(manifest.specimens).toEqual([
      {
        id: 'wave-ring',
        function_name: 'wave',
        display_name: 'Ring',
        description: '',
        tags: ['mesh'],
        story: 'A ring of triangles.',
        thumbnail: 'thumbnails/ring.png',
      },
      {
        id: 'wave-ring.inline',
        function_name: 'wave',
        display_name: 'Inline ring',
        description: '',
        tags: [],
        story: null,
        thumbnail: 'data:image/png;base64,iVBORw0KGgo=',
      },
    ]);
    // The TypeScript plugin's manifest is as it always was: no runtime key.
    expect(Object.keys(JSON.parse(readFileSync(path.join(root, 'out', 'shapes', 'manifest.json'), 'utf8')) as object)).not.toContain('runtime');
  });

  it('--check: current after a build; stale after an edit of plugin.py, a sibling module or a data file', async () => {
    const root = tempDir();
    writeFiles(path.join(root, 'src'), samplePythonPlugin());
    expect((await build(root)).code).toBe(0);
    const fresh = await build(root, '--check');
    expect(fresh.code).toBe(0);
    expect(fresh.stdout).toContain('1 plugin current in out');

    const src = (file: string) => path.join(root, 'src', 'waves', file);
    writeFileSync(src('plugin.py'), readFileSync(src('plugin.py'), 'utf8').replace('= 1.5', '= 2.5'));
    writeFileSync(src('grid.py'), 'def grid(radius, segments):\n    return []\n');
    writeFiles(root, { 'src/waves/data/extra.csv': 'x\n' });
    rmSync(src('data/levels.csv'));
    // A new bytecode cache or test changes nothing the bundle carries.
    writeFiles(root, { 'src/waves/__pycache__/grid.cpython-311.pyc': 'new', 'src/waves/tests/test_more.py': '' });
    const stale = await build(root, '--check');
    expect(stale.code).toBe(1);
    const staleLine = stale.stderr.split('\n').find((line) => line.startsWith('waves: stale: ')) ?? '';
    const parts = ['plugin.py differs', 'grid.py differs', 'manifest.json differs', 'data/extra.csv missing', 'data/levels.csv is not produced by the build'];
    for (const part of parts) {
      expect(staleLine).toContain(part);
    }
    expect(stale.stderr).not.toMatch(/pyc|test_more/);
  });

  it('reads with the interpreter --python or VITRINE_PYTHON names, and says so when it is missing', async () => {
    const root = tempDir();
    writeFiles(path.join(root, 'src'), samplePythonPlugin());
    const missing = await runVitrine(['build', 'src', '--out', 'out', '--python', path.join(root, 'no-python')], root);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain(
      `src/waves/plugin.py:1:1 error VITRINE_PLUGIN_403 Python plugin could not be read: the Python interpreter '${path.join(root, 'no-python')}' was not ` +
      `found`,
    );
    const fromEnv = await runVitrine(['build', 'src', '--out', 'out'], root, { VITRINE_PYTHON: path.join(root, 'env-python') });
    expect(fromEnv.code).toBe(1);
    expect(fromEnv.stderr).toContain(`the Python interpreter '${path.join(root, 'env-python')}' was not found`);
    const good = await runVitrine(['build', 'src', '--out', 'out'], root, { VITRINE_PYTHON: TEST_PYTHON });
    expect(good.code).toBe(0);
  });

  it('prints Python build errors as file:line:col and writes nothing', async () => {
    const root = tempDir();
    const plugin = samplePythonPlugin();
    plugin['waves/plugin.py'] = String(plugin['waves/plugin.py']).replace('segments: int = 32,', 'segments: int = 32,\n    when: datetime = None,');
    writeFiles(path.join(root, 'src'), plugin);
    const run = await build(root);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(
      "src/waves/plugin.py:15:11 error VITRINE_SCHEMA_100 unsupported parameter type [function 'wave', parameter 'when']: parameter 'when' " +
        "has annotation 'datetime'; use float (seconds since the epoch) or str (an ISO 8601 date) instead; supported: ",
    );
    expect(run.stderr).toContain('vitrine build: 1 error; nothing written to out');
    expect(readBundleFolder(path.join(root, 'out', 'waves')).size).toBe(0);
  });
});
