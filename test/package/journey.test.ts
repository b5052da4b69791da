/**
 * The whole journey of a new user on the packed package: `vitrine init` from the tarball,
 * `npm install` of it, the scaffold's own `npm test`, `vitrine build` and `build --check`,
 * `vitrine serve` (with no TypeScript tool loaded) answering for data, `import('vitrine/client')`
 * from plain Node, a Chromium page importing `/client.js` with no bundler, and `npx vitrine dev`
 * with the viewer open: a saved plugin changes the mesh on the page without a page reload, and
 * a build error shows over the page; a Python plugin built with the reader the package ships.
 * One install is shared by the tests of this file.
 */
import { existsSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DRAW_SCALE, waitForText } from '../browser/browser-session.ts';
import { fileBrowser } from '../browser/fork-browser.ts';
import { spawnHost } from '../helpers/spawn-host.ts';
import { TEST_PYTHON } from '../helpers/test-python.ts';
import { createPackedProject, startListening, type PackedProject } from './packed-project.ts';

let project: PackedProject;
let browser: Browser | undefined;
/**
 * The one page the browser checks load their URL into, in turn: a page of its own for each
 * cost Chromium a renderer and a cold start of the viewer more.
 */
let tab: Page | undefined;
const openTab = async (): Promise<Page> => {
  browser ??= await fileBrowser(DRAW_SCALE);
  if (!tab || tab.isClosed()) tab = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  return tab;
};
/** The project's `vitrine build`, run once: what the build test checks and the serve test serves. */
let built: Promise<{ stdout: string }> | undefined;
const buildOnce = () => (built ??= project.exec(process.execPath, [project.bin, 'build']));

beforeAll(async () => {
  project = await createPackedProject();
}, 240_000);

afterAll(async () => {
  await browser?.close();
});

/** Build-time tools the host must not load while serving. */
const BUILD_TOOLS = /\/node_modules\/(ts-morph|@ts-morph|typescript|tsx|esbuild)\//;

describe('the packed package, installed into a new project', () => {
  it('ships only the compiled package', async () => {
    const pkg = JSON.parse(await readFile(path.join(project.dir, 'node_modules/vitrine/package.json'), 'utf8')) as { bin: Record<string, string> };
    expect(pkg.bin.vitrine).toMatch(/\.js$/);
    const { stdout } = await project.exec('find', ['node_modules/vitrine', '-name', '*.ts', '-not', '-name', '*.d.ts']);
    expect(stdout.trim()).toBe('');
    const tests = await project.exec('find', ['node_modules/vitrine', '-name', '*.test.*', '-o', '-path', '*/test/*', '-o', '-path', '*/.ci/*']);
    expect(tests.stdout.trim()).toBe('');
  });

  it('ships every document its README links to', async () => {
    const readme = await readFile(path.join(project.packageDir, 'README.md'), 'utf8');
    const linked = [...readme.matchAll(/\]\(([^)#:\s]+\.md)(?:#[^)]*)?\)/g)].map((match) => match[1]!);
    expect(linked).toContain('docs/scaling.md');
    const missing = linked.filter((file) => !existsSync(path.join(project.packageDir, file)));
    expect(missing).toEqual([]);
  });

  it("links the scaffold's README only to files its install has", async () => {
    const readme = await readFile(path.join(project.dir, 'README.md'), 'utf8');
    const linked = [...readme.matchAll(/\]\(([^)#\s]+)(?:#[^)]*)?\)/g)].map((match) => match[1]!);
    expect(linked).toContain('node_modules/vitrine/plugins/README.md');
    expect(linked.filter((target) => /^[a-z]+:/.test(target) || !existsSync(path.join(project.dir, target)))).toEqual([]);
  });

  it('scaffolds from the installed CLI depending on the same tarball by default', async () => {
    await project.exec(process.execPath, [project.bin, 'init', 'nested/second']);
    const pkg = JSON.parse(await readFile(path.join(project.dir, 'nested/second/package.json'), 'utf8')) as { dependencies: Record<string, string> };
    expect(pkg.dependencies.vitrine).toMatch(/^file:\.\.\/\.\.\/\.\.\/vitrine-[\d.]+\.tgz$/);
  });

  it("passes the scaffold's own tests, builds, and checks the build", async () => {
    const test = await project.exec('npm', ['test']);
    expect(test.stdout).toMatch(/# pass 3/);
    // The scaffold type-checks its plugin and test against the package's own declarations: its
    // `npm test` runs `npm run typecheck` first, which passed (npm test would have failed).
    expect(test.stdout).toMatch(/> \S+ typecheck\n> tsc --noEmit\n/);
    const build = await buildOnce();
    expect(build.stdout).toMatch(/built 1 plugin \(1 function, 1 specimen\)/);
    const check = await project.exec('npx', ['vitrine', 'build', '--check']);
    expect(check.stdout).toMatch(/1 plugin current/);
  }, 240_000);

  it('builds a Python plugin with the reader the package ships', async () => {
    await mkdir(path.join(project.dir, 'py-plugins/waves'), { recursive: true });
    await writeFile(
      path.join(project.dir, 'py-plugins/waves/plugin.py'),
      'from typing import Annotated\nfrom vitrine import MeshResult, Range\n\n\ndef wave(size: Annotated[float, Range(0, 4)] = 1) -> MeshResult:\n    ' +
      '"""A wave."""\n    return MeshResult(vertices=[0, 0, 0], indices=[0, 0, 0])\n\n\nspecimens = [{"id": "wave", "function": "wave", "display_name": ' +
      '"Wave"}]\n',
    );
    const build = await project.exec(process.execPath, [project.bin, 'build', 'py-plugins', '--out', 'py-out', '--python', TEST_PYTHON]);
    expect(build.stdout).toMatch(/waves: 1 function, 1 specimen/);
    const manifest = JSON.parse(await readFile(path.join(project.dir, 'py-out/waves/manifest.json'), 'utf8')) as {
      runtime: string;
      functions: { schema: { properties: Record<string, unknown> } }[];
    };
    expect(manifest.runtime).toBe('python');
    expect(manifest.functions[0]!.schema.properties['size']).toEqual({ type: 'number', default: 1, minimum: 0, maximum: 4 });
    const check = await project.exec(process.execPath, [project.bin, 'build', 'py-plugins', '--out', 'py-out', '--check', '--python', TEST_PYTHON]);
    expect(check.stdout).toMatch(/1 plugin current in py-out/);
    // The installed package runs it: its Python module on the plugin processes' path.
    const host = await startListening(project.dir, project, ['--port', '0', '--plugins', 'py-out', '--specimens', 'none', '--python', TEST_PYTHON]);
    try {
      const res = await fetch(`${host.url}/api/processing/invoke`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ function_name: 'wave' }),
      });
      expect(await res.json()).toEqual({ type: 'mesh', vertices: [0, 0, 0], indices: [0, 0, 0] });
    } finally {
      await host.stop();
    }
  });

  it('scaffolds a Python plugin project whose unittest passes with the installed module', async () => {
    await project.exec(process.execPath, [project.bin, 'init', 'py-lab', '--python']);
    const where = (await project.exec(process.execPath, [project.bin, 'python-path'])).stdout.trim();
    expect(where).toBe(path.join(project.dir, 'node_modules/vitrine/core/python'));
    // Typed (PEP 561): a plugin author's own mypy reads the module's annotations.
    expect(existsSync(path.join(where, 'vitrine/py.typed'))).toBe(true);
    const test = await project.exec('env', [`PYTHONPATH=${where}`, TEST_PYTHON, '-m', 'unittest', 'discover', '-s', 'py-lab/test', '-v']);
    expect(test.stderr).toMatch(/Ran 2 tests[\s\S]*OK/);
  });

  it('imports vitrine/client, vitrine and vitrine/testing from plain node', async () => {
    const script =
      "const c = await import('vitrine/client'); const s = await import('vitrine'); const t = await import('vitrine/testing'); console.log(typeof " +
      "c.createClient, typeof c.decodeEnvelope, typeof s.decodeEnvelope, typeof t.loadPlugin);";
    const { stdout } = await project.exec(process.execPath, ['--input-type=module', '-e', script]);
    expect(stdout.trim()).toBe('function function function function');
  });

  it('serves the built plugin with no TypeScript tool loaded, and /client.js to a page without a bundler', async () => {
    await buildOnce();
    const log = path.join(project.dir, 'loaded-tools.log');
    await writeFile(
      path.join(project.dir, 'hooks.mjs'),
      `import { appendFileSync } from 'node:fs';\nexport async function resolve(specifier, context, next) {\n  const result = await next(specifier, ` +
      `context);\n  if (${BUILD_TOOLS}.test(result.url)) appendFileSync(${JSON.stringify(log)}, result.url + '\\n');\n  return result;\n}\n`,
    );
    await writeFile(path.join(project.dir, 'watch-imports.mjs'), "import { register } from 'node:module';\nregister('./hooks.mjs', import.meta.url);\n");
    await writeFile(log, '');
    const host = await startListening(project.dir, project, ['--port', '0'], ['--import', './watch-imports.mjs']);
    try {
      const list = (await (await fetch(`${host.url}/api/specimens/`)).json()) as { id: string }[];
      expect(list.map((s) => s.id)).toEqual(['ripple']);
      const { decodeEnvelope } = await import(path.join(project.dir, 'node_modules/vitrine/build/dist/core/client/index.js'));
      const env = decodeEnvelope(await (await fetch(`${host.url}/api/specimens/ripple/data?params=${encodeURIComponent('{"segments":8}')}`)).arrayBuffer());
      expect(env.type).toBe('mesh');
      expect(env.vertices.length).toBe(9 * 9 * 3);
      expect(await readFile(log, 'utf8')).toBe('');

      const page = await openTab();
      await page.goto(`${host.url}/`);
      // A module script as a web page writes it: a plain import of the host's /client.js.
      await page.addScriptTag({
        type: 'module',
        content: `import { decodeEnvelope } from '/client.js';
const bytes = await (await fetch('/api/specimens/ripple/data?params=%7B%22segments%22%3A4%7D')).arrayBuffer();
const env = decodeEnvelope(bytes);
document.body.dataset.decoded = JSON.stringify({ type: env.type, vertices: env.vertices.length });`,
      });
      const handle = await page.waitForFunction(() => document.body.dataset.decoded, undefined, { timeout: 30_000 });
      const decoded = JSON.parse(String(await handle.jsonValue())) as unknown;
      expect(decoded).toEqual({ type: 'mesh', vertices: 5 * 5 * 3 });
    } finally {
      await host.stop();
    }
  });

  it('npx vitrine dev: a saved plugin changes the mesh in an open viewer without a page reload', async () => {
    const file = path.join(project.dir, 'plugins/my-shapes/index.ts');
    const original = await readFile(file, 'utf8');
    const cli = path.join(project.dir, 'node_modules/.bin/vitrine');
    const dev = await spawnHost(['--port', '0', '--specimens', 'none', '--pool-size', '1'], { cwd: project.dir, cli, command: 'dev' });
    try {
      const page = await openTab();
      await page.goto(`${dev.url}/?specimen=ripple`);
      const triangles = '[data-testid=stats] [data-stat=triangles] dd';
      await waitForText(page, triangles, (64 * 64 * 2).toLocaleString('en-US'));
      await page.evaluate(() => ((window as unknown as { kept: boolean }).kept = true));

      await writeFile(file, original.replace('segments: Integer = 64', 'segments: Integer = 8'));
      await waitForText(page, triangles, String(8 * 8 * 2));
      expect(dev.stdout()).toMatch(/reloaded my-shapes in \d+ ms/);

      await writeFile(file, original.replace('segments: Integer = 64', 'segments: Integer = 8, when: Date'));
      await page.waitForSelector('[data-testid=build-error]:not([hidden])', { timeout: 30_000 });
      expect(await page.textContent('[data-testid=build-error]')).toMatch(/plugins\/my-shapes\/index\.ts:\d+:\d+ error VITRINE_SCHEMA_100/);
      await writeFile(file, original.replace('segments: Integer = 64', 'segments: Integer = 4'));
      await waitForText(page, triangles, String(4 * 4 * 2));
      await page.waitForSelector('[data-testid=build-error]', { state: 'hidden', timeout: 30_000 });
      expect(await page.evaluate(() => (window as unknown as { kept?: boolean }).kept)).toBe(true);
    } finally {
      await writeFile(file, original);
      await dev.stop();
    }
  });
});
