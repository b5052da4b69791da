/**
 * `vitrine build` writes each plugin's version (package.json, `__version__`, pyproject.toml,
 * else 0.0.0) and every bundle file's SHA-256 into its manifest, and `--check` still holds.
 */
import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildPlugins } from '../../build/build-plugins.ts';
import type { PluginManifest } from '../../core/registry/manifest-types.ts';
import { TEST_PYTHON } from '../helpers/test-python.ts';
import { samplePythonPlugin } from './helpers/python-plugin.ts';
import { runVitrine, sampleShapesPlugin, tempDir, writeFiles } from './helpers/run-cli.ts';

const DOT_PLUGIN = [
  "import type { ImageResult } from 'vitrine';",
  'export function dot(size = 1): ImageResult {',
  '  return { width: size, height: 1, channels: 1, data: new Uint8Array(size) };',
  '}',
  '',
].join('\n');

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

async function manifestsOf(root: string): Promise<Map<string, { manifest: PluginManifest; files: Map<string, Buffer> }>> {
  const { plugins, diagnostics } = await buildPlugins(path.join(root, 'src'), path.join(root, 'out'), { python: TEST_PYTHON });
  expect(diagnostics).toEqual([]);
  const manifestOf = (files: Map<string, Buffer>) => JSON.parse(files.get('manifest.json')!.toString('utf8')) as PluginManifest;
  return new Map(plugins.map((p) => [p.name, { manifest: manifestOf(p.files), files: p.files }]));
}

describe('plugin versions in manifests', { timeout: 240_000 }, () => {
  it('takes the version from package.json in the plugin folder, else the nearest above, else 0.0.0', async () => {
    const root = tempDir();
    writeFiles(path.join(root, 'src'), sampleShapesPlugin());
    writeFiles(path.join(root, 'src'), { 'other/index.ts': DOT_PLUGIN });
    let built = await manifestsOf(root);
    expect(built.get('shapes')!.manifest.version).toBe('0.0.0');
    writeFiles(root, { 'package.json': JSON.stringify({ name: 'lab-plugins', version: '2.1.0' }) });
    writeFiles(path.join(root, 'src'), { 'shapes/package.json': JSON.stringify({ name: 'shapes', version: '1.4.2' }) });
    built = await manifestsOf(root);
    expect(built.get('shapes')!.manifest.version).toBe('1.4.2');
    expect(built.get('other')!.manifest.version).toBe('2.1.0');
  });

  it('lists every bundle file with its SHA-256, thumbnails included', async () => {
    const root = tempDir();
    writeFiles(path.join(root, 'src'), sampleShapesPlugin());
    const { manifest, files } = (await manifestsOf(root)).get('shapes')!;
    expect(Object.keys(manifest.files!)).toEqual([...files.keys()].filter((f) => f !== 'manifest.json').sort());
    expect(Object.keys(manifest.files!)).toContain('index.mjs');
    for (const [file, hash] of Object.entries(manifest.files!)) expect(hash).toBe(sha256(files.get(file)!));
  });

  it("reads a Python plugin's __version__, else its pyproject.toml", async () => {
    const root = tempDir();
    writeFiles(path.join(root, 'src'), samplePythonPlugin());
    expect((await manifestsOf(root)).get('waves')!.manifest.version).toBe('0.0.0');
    writeFiles(root, { 'pyproject.toml': '[build-system]\nrequires = []\n\n[project]\nname = "waves"\nversion = "0.3.1"\n' });
    expect((await manifestsOf(root)).get('waves')!.manifest.version).toBe('0.3.1');
    const entry = path.join(root, 'src', 'waves', 'plugin.py');
    writeFileSync(entry, `__version__ = "1.0.0rc2"\n${readFileSync(entry, 'utf8')}`);
    const { manifest, files } = (await manifestsOf(root)).get('waves')!;
    expect(manifest.version).toBe('1.0.0rc2');
    expect(manifest.files!['plugin.py']).toBe(sha256(files.get('plugin.py')!));
  });

  it('--check passes right after a build and names a version change as stale', async () => {
    const root = tempDir();
    writeFiles(path.join(root, 'src'), { ...sampleShapesPlugin(), 'shapes/package.json': JSON.stringify({ version: '1.0.0' }) });
    expect((await runVitrine(['build', 'src', '--out', 'out'], root)).code).toBe(0);
    const written = JSON.parse(readFileSync(path.join(root, 'out', 'shapes', 'manifest.json'), 'utf8')) as PluginManifest;
    expect(written.version).toBe('1.0.0');
    expect((await runVitrine(['build', 'src', '--out', 'out', '--check'], root)).code).toBe(0);
    writeFiles(path.join(root, 'src'), { 'shapes/package.json': JSON.stringify({ version: '1.1.0' }) });
    const stale = await runVitrine(['build', 'src', '--out', 'out', '--check'], root);
    expect(stale.code).toBe(1);
    expect(stale.stderr).toMatch(/^shapes: stale: manifest\.json differs$/m);
  });
});
