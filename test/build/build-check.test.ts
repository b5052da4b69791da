/**
 * `vitrine build --check`: 0 when DIR matches what a build would write, 1 naming each stale,
 * missing or left-over plugin otherwise. A doc comment naming a parameter that is gone is a
 * warning of the build and an error of the check, TypeScript and Python alike.
 */
import { cpSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runVitrine, sampleShapesPlugin, tempDir, writeFiles } from './helpers/run-cli.ts';
import { samplePythonPlugin } from './helpers/python-plugin.ts';
import { TEST_PYTHON } from '../helpers/test-python.ts';

/** One build of a TypeScript pair, made once; each test that edits it gets a copy of its own. */
let built: Promise<string> | undefined;

async function freshBuild(): Promise<string> {
  built ??= buildPair();
  const root = tempDir();
  cpSync(await built, root, { recursive: true });
  return root;
}

async function buildPair(): Promise<string> {
  const root = tempDir();
  writeFiles(path.join(root, 'src'), sampleShapesPlugin());
  writeFiles(path.join(root, 'src'), {
    'dots/index.ts':
      "import type { ImageResult } from 'vitrine';\nexport function dot(size = 1): ImageResult {\n  return { width: size, height: 1, channels: 1, data: " +
      "new Uint8Array(size) };\n}\n",
  });
  const build = await runVitrine(['build', 'src', '--out', 'out'], root);
  expect(build.code).toBe(0);
  return root;
}

const check = (root: string) => runVitrine(['build', 'src', '--out', 'out', '--check'], root);

// Each test spawns the CLI a few times; a busy 2-core machine needs more than the default timeout.
describe('vitrine build --check', { timeout: 240_000 }, () => {
  it('exits 0 right after a build, and 1 naming the plugin after a source edit', async () => {
    const root = await freshBuild();
    const fresh = await check(root);
    expect(fresh.code).toBe(0);
    expect(fresh.stdout).toContain('2 plugins current in out');

    const index = path.join(root, 'src', 'shapes', 'index.ts');
    writeFileSync(index, readFileSync(index, 'utf8').replace('radius = 1.5', 'radius = 2.5'));
    const stale = await check(root);
    expect(stale.code).toBe(1);
    expect(stale.stderr).toMatch(/^shapes: stale: index\.mjs differs, manifest\.json differs$/m);
    expect(stale.stderr).not.toMatch(/^dots:/m);
  });

  it('exits non-zero when the output directory does not exist, and does not write anything', async () => {
    const root = tempDir();
    writeFiles(path.join(root, 'src'), sampleShapesPlugin());
    const run = await check(root);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('shapes: missing (not built)');
    expect(() => readFileSync(path.join(root, 'out', 'shapes', 'manifest.json'))).toThrow();
  });

  it('notices a missing thumbnail, a hand-edited manifest and a left-over plugin folder', async () => {
    const root = await freshBuild();
    rmSync(path.join(root, 'out', 'shapes', 'thumbnails', 'ring.png'));
    const manifest = path.join(root, 'out', 'dots', 'manifest.json');
    writeFileSync(manifest, readFileSync(manifest, 'utf8').replace('"dot"', '"Dot"'));
    writeFiles(path.join(root, 'out'), { 'gone/manifest.json': '{}\n', 'gone/index.mjs': '' });
    const run = await check(root);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('shapes: stale: thumbnails/ring.png missing');
    expect(run.stderr).toContain('dots: stale: manifest.json differs');
    expect(run.stderr).toContain('gone: left over');
    expect(run.stderr).toContain('3 plugins not current');
  });

  it('an @param naming no parameter is a warning of the build and an error of --check', async () => {
    const root = tempDir();
    writeFiles(path.join(root, 'src'), {
      'dots/index.ts':
        "import type { ImageResult } from 'vitrine';\n/**\n * A row of dots.\n * @param size How many.\n * @param colour Renamed away.\n */\n" +
        'export function dot(size = 1): ImageResult {\n  return { width: size, height: 1, channels: 1, data: new Uint8Array(size) };\n}\n',
    });
    writeFiles(path.join(root, 'src'), samplePythonPlugin());
    const index = path.join(root, 'src', 'waves', 'plugin.py');
    const documented = '    radius : float\n        Ring radius.\n';
    writeFileSync(index, readFileSync(index, 'utf8').replace(documented, `${documented}    width : float\n        Gone.\n`));
    const env = { VITRINE_PYTHON: TEST_PYTHON };
    const build = await runVitrine(['build', 'src', '--out', 'out'], root, env);
    expect(build.code).toBe(0);
    expect(build.stderr).toMatch(/^src\/dots\/index\.ts:5:4 warning VITRINE_SCHEMA_110 doc comment names no parameter \[function 'dot', parameter 'colour'\]/m);
    expect(build.stderr).toMatch(/^src\/waves\/plugin\.py:\d+:\d+ warning VITRINE_SCHEMA_110 .*\[function 'wave', parameter 'width'\]/m);
    // Built whole all the same, without the stale text.
    const manifest = JSON.parse(readFileSync(path.join(root, 'out', 'dots', 'manifest.json'), 'utf8')) as { functions: { schema: { properties: object } }[] };
    expect(Object.keys(manifest.functions[0]!.schema.properties)).toEqual(['size']);
    const checked = await runVitrine(['build', 'src', '--out', 'out', '--check'], root, env);
    expect(checked.code).toBe(1);
    expect(checked.stderr).toContain("warning VITRINE_SCHEMA_110 doc comment names no parameter [function 'dot', parameter 'colour']");
    expect(checked.stderr).toContain('2 warnings, each an error under --check');
  });
});
