/**
 * @module python-plugins
 * Python plugin bundles for tests: test/fixtures/python-plugins built by the real `vitrine
 * build`, copied into a fresh plugins folder (so a test may add a broken one beside them), and
 * the interpreter the tests run them with.
 */
import { cp, mkdtemp, mkdir, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { builtFixture } from './built-fixture.ts';

/** The interpreter tests run Python plugins with (test-python.ts). */
export { TEST_PYTHON as PYTHON } from './test-python.ts';

/** A new plugins folder holding the named fixture bundles (default: all of them). */
export async function pythonPluginsDir(names: string[] = ['py-lab']): Promise<string> {
  const built = await builtFixture('python-plugins');
  const dir = await mkdtemp(path.join(tmpdir(), 'vitrine-py-plugins-'));
  for (const name of names) await cp(path.join(built, name), path.join(dir, name), { recursive: true });
  return dir;
}

/** Writes a one-function Python bundle `name` into `dir` whose plugin.py is `source`. */
export async function writePythonBundle(dir: string, name: string, source: string, fn = 'shape'): Promise<void> {
  const folder = path.join(dir, name);
  await mkdir(folder, { recursive: true });
  await writeFile(path.join(folder, 'plugin.py'), source);
  const manifest = {
    $comment: 'written by a test',
    manifest_version: 1,
    plugin: name,
    runtime: 'python',
    bundle: 'plugin.py',
    functions: [
      {
        name: fn,
        return_type: 'mesh',
        async: false,
        parameters: [],
        reporter_parameter: null,
        signal_parameter: null,
        schema: { $schema: 'https://json-schema.org/draft/2020-12/schema', title: fn, type: 'object', properties: {}, required: [] },
        source: { file: 'plugin.py', line: 1 },
      },
    ],
    specimens: [{ id: `${name}-shape`, function_name: fn, display_name: fn, description: '', tags: [], story: null, thumbnail: null }],
  };
  await writeFile(path.join(folder, 'manifest.json'), JSON.stringify(manifest, null, 2));
}
