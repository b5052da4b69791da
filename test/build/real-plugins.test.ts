/**
 * The example plugins in plugins/ build cleanly, and every registered function of every bundle
 * runs in plain Node, with every parameter the schema bounds at its minimum and the others at
 * their schema defaults, and returns a well-formed typed result. (Their runs at the defaults and
 * at the maximums, from source and with stricter checks, are test/plugins/example-functions.test.ts's:
 * the minimums keep this one cheap, and no function's lower bound goes untried.)
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { PluginManifest } from '../../core/registry/manifest-types.ts';
import { execFile } from 'node:child_process';
import { PYTHON_MODULE_DIR } from '../../core/python/python-module-dir.ts';
import { PYTHON } from '../helpers/python-plugins.ts';
import { REPO_ROOT, runNode, runVitrine, tempDir, type CliRun } from './helpers/run-cli.ts';

function runPython(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(PYTHON, args, { env: { ...process.env, PYTHONPATH: PYTHON_MODULE_DIR, PYTHONDONTWRITEBYTECODE: '1' } }, (error, stdout, stderr) =>
      resolve({ code: error ? 1 : 0, stdout, stderr }),
    );
  });
}

/**
 * Runs in one child `node` for every bundle: calls each function (numbers at their minimums,
 * the rest at their defaults) and reports what came back, by plugin.
 */
const CHECK_SCRIPT = `
const { readFileSync } = await import('node:fs');
const { pathToFileURL } = await import('node:url');
const [out, namesText] = process.argv.slice(1);
const byPlugin = {};
for (const name of JSON.parse(namesText)) byPlugin[name] = await check(
  await import(pathToFileURL(out + '/' + name + '/index.mjs').href),
  JSON.parse(readFileSync(out + '/' + name + '/manifest.json', 'utf8')),
);
console.log(JSON.stringify(byPlugin));

async function check(plugin, manifest) {
const out = [];
const product = (shape) => shape.reduce((a, b) => a * b, 1);
for (const fn of manifest.functions) {
  const problems = [];
  // A function taking inputs needs a host to resolve them (test/plugins/example-functions.test.ts runs
  // it through vitrine/testing); here its default must name a specimen, so {} params work.
  const inputs = Object.entries(fn.schema.properties).filter(([, p]) => p['x-vitrine-input']);
  if (inputs.length > 0) {
    for (const [name, p] of inputs) if (typeof p.default?.specimen !== 'string') problems.push('no default specimen for input ' + name);
    out.push({ name: fn.name, problems });
    continue;
  }
  const args = fn.parameters.map((p) => {
    if (p.kind === 'reporter') return { report() {} };
    if (p.kind === 'signal') return new AbortController().signal;
    const property = fn.schema.properties[p.name];
    if (!('default' in property)) problems.push('no default for ' + p.name);
    return property.minimum ?? property.default;
  });
  let r;
  try { r = await plugin[fn.name](...args); } catch (error) { problems.push('threw ' + (error && error.stack || error)); }
  if (r) {
    if (fn.return_type === 'mesh') {
      if (!(r.vertices instanceof Float32Array) || r.vertices.length === 0 || r.vertices.length % 3) problems.push('vertices');
      if (!(r.indices instanceof Uint32Array) || r.indices.length === 0 || r.indices.length % 3) problems.push('indices');
      const count = r.vertices.length / 3;
      if (r.indices.some((i) => i >= count)) problems.push('index out of range');
      if (r.normals !== undefined && (!(r.normals instanceof Float32Array) || r.normals.length !== r.vertices.length)) problems.push('normals');
      if (r.vertices.some((v) => !Number.isFinite(v))) problems.push('non-finite vertex');
    } else if (fn.return_type === 'volume') {
      if (!Array.isArray(r.shape) || !r.shape.every(Number.isInteger)) problems.push('shape');
      if (!['uint8','int8','uint16','int16','uint32','int32','float32','float64'].includes(r.dtype)) problems.push('dtype');
      if (!ArrayBuffer.isView(r.data) || r.data.length !== product(r.shape)) problems.push('data length');
    } else if (fn.return_type === 'point_cloud') {
      if (!(r.points instanceof Float32Array) || r.points.length === 0 || r.points.length % 3) problems.push('points');
      const count = r.points.length / 3;
      if (r.colors !== undefined && r.colors.length !== count * 3) problems.push('colors');
      if (r.scalars !== undefined && r.scalars.length !== count) problems.push('scalars');
    } else if (fn.return_type === 'image') {
      if (![1, 2, 3, 4].includes(r.channels)) problems.push('channels');
      if (!ArrayBuffer.isView(r.data) || r.data.length !== r.width * r.height * r.channels || r.data.length === 0) problems.push('data length');
    }
  } else if (!problems.length) problems.push('no result');
  out.push({ name: fn.name, problems });
}
return out;
}
`;

const PLUGINS_DIR = path.join(REPO_ROOT, 'plugins');
const pluginsWith = (entry: string) =>
  existsSync(PLUGINS_DIR)
    ? readdirSync(PLUGINS_DIR, { withFileTypes: true })
        .filter((e) => e.isDirectory() && existsSync(path.join(PLUGINS_DIR, e.name, entry)))
        .map((e) => e.name)
        .sort()
    : [];
const pluginNames = pluginsWith('index.ts');
const pythonPluginNames = pluginsWith('plugin.py');

/** Runs each function of a Python plugin with its defaults through vitrine.testing (the host's checks). */
const PYTHON_CHECK = `
import json, sys, typing
from vitrine.testing import load, run
module = load(sys.argv[1])
out = []
for name in json.loads(sys.argv[2]):
    try:
        result = run(module, name)
        out.append({"name": name, "problems": [], "type": type(result).__name__})
    except Exception as error:
        out.append({"name": name, "problems": [f"{type(error).__name__}: {error}"]})
print(json.dumps(out))
`;

/** One build of plugins/ into a temp folder, shared by the tests of this file (they only read it). */
let built: Promise<{ out: string; build: CliRun }> | undefined;
function examplesBuilt(): Promise<{ out: string; build: CliRun }> {
  built ??= (async () => {
    const out = path.join(tempDir('vitrine-real-'), 'out');
    return { out, build: await runVitrine(['build', 'plugins', '--out', out]) };
  })();
  return built;
}

describe('the example plugins', () => {
  it('build without errors into a temp folder', { timeout: 300_000 }, async () => {
    expect(pluginNames.length).toBeGreaterThan(0);
    const { out, build } = await examplesBuilt();
    expect(build.stderr).toBe('');
    expect(build.code).toBe(0);
    expect(readdirSync(out).sort()).toEqual([...pluginNames, ...pythonPluginNames].sort());

    const run = await runNode(['--input-type=module', '-e', CHECK_SCRIPT, out, JSON.stringify(pluginNames)], tempDir('vitrine-run-'));
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    const byPlugin = JSON.parse(run.stdout) as Record<string, Array<{ name: string; problems: string[] }>>;
    for (const name of pluginNames) {
      const manifest = JSON.parse(readFileSync(path.join(out, name, 'manifest.json'), 'utf8')) as PluginManifest;
      expect(manifest.functions.length, `${name} registers functions`).toBeGreaterThan(0);
      for (const specimen of manifest.specimens) {
        expect(manifest.functions.map((fn) => fn.name)).toContain(specimen.function_name);
        if (specimen.thumbnail && !specimen.thumbnail.startsWith('data:')) {
          expect(existsSync(path.join(out, name, specimen.thumbnail)), `${name}/${specimen.thumbnail}`).toBe(true);
        }
      }
      const results = byPlugin[name]!;
      expect(results.map((r) => r.name)).toEqual(manifest.functions.map((fn) => fn.name));
      for (const result of results) expect(result.problems, `${name}.${result.name}`).toEqual([]);
    }
  });

  it('include a Python plugin whose functions all run with their defaults on the standard library', { timeout: 120_000 }, async () => {
    expect(pythonPluginNames.length).toBeGreaterThan(0);
    const { out, build } = await examplesBuilt();
    expect(build.code).toBe(0);
    for (const name of pythonPluginNames) {
      const manifest = JSON.parse(readFileSync(path.join(out, name, 'manifest.json'), 'utf8')) as PluginManifest;
      expect(manifest.runtime).toBe('python');
      // numpy made unimportable: the example needs nothing but the standard library.
      const script = `import sys; sys.modules["numpy"] = None\n${PYTHON_CHECK}`;
      const { stdout, code, stderr } = await runPython([
        '-c',
        script,
        path.join(out, name, 'plugin.py'),
        JSON.stringify(manifest.functions.map((fn) => fn.name)),
      ]);
      expect(code, stderr).toBe(0);
      for (const result of JSON.parse(stdout) as { name: string; problems: string[] }[]) expect(result.problems, `${name}.${result.name}`).toEqual([]);
    }
  });
});
