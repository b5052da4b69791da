/**
 * How Python plugins come and go: a plugin whose import fails leaves the catalog with one
 * warning naming the missing module (and another Python on the machine that has it), and
 * leaves again on a reload, whose answer names it, until its import is fixed; a host with no usable Python serves everything else and
 * says so once; two plugins may have sibling modules of the same name; a rebuilt plugin's new
 * code is what the warm processes run next.
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { createTestApp } from '../helpers/create-test-app.ts';
import { fixturePluginsDir } from '../helpers/fixture-plugins.ts';
import { PYTHON, pythonPluginsDir, writePythonBundle } from '../helpers/python-plugins.ts';
import { waitFor } from '../helpers/wait-for.ts';

/** The host's log lines (their messages), and a wait for the first that `wanted` accepts. */
function logLines(): { stream: PassThrough; lines: () => string[]; line: (wanted: (msg: string) => boolean) => Promise<string> } {
  const stream = new PassThrough();
  let text = '';
  stream.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
  const lines = () => text.split('\n').filter(Boolean).map((line) => (JSON.parse(line) as { msg: string }).msg);
  const line = (wanted: (msg: string) => boolean) =>
    new Promise<string>((resolve) => {
      const look = () => {
        const found = lines().find(wanted);
        if (found === undefined) return false;
        stream.off('data', look);
        resolve(found);
        return true;
      };
      if (!look()) stream.on('data', look);
    });
  return { stream, lines, line };
}

const MESH = (x: number) => `from vitrine import MeshResult\n\ndef shape() -> MeshResult:\n    return ([0, 0, 0, ${x}, 0, 0, 0, 1, 0], [0, 1, 2])\n`;

describe('loading Python plugins', () => {
  it('leaves out a plugin whose import fails, with one warning naming the missing module', async () => {
    const plugins = await pythonPluginsDir();
    // A module no machine has (not one that is merely uncommon: a developer's Python may have it).
    const source =
      'import vitrine_absent_dependency.filters\nfrom vitrine import MeshResult\n\ndef shape() -> MeshResult:\n    return ([0,0,0,1,0,0,0,1,0],[0,1,2])\n';
    await writePythonBundle(plugins, 'needs-absent', source);
    const log = logLines();
    const app = await createTestApp({ pluginsDir: plugins, python: PYTHON, pythonProcesses: 2, logLevel: 'warn', logStream: log.stream });
    // The warning is said as the plugin leaves (its functions and specimens go with it).
    await log.line((msg) => msg.includes('needs-absent'));
    const ids = ((await app.inject('/api/specimens')).json() as { id: string }[]).map((s) => s.id);
    expect(ids).not.toContain('needs-absent-shape');
    expect(ids).toContain('py-triangle');
    const warnings = log.lines().filter((line) => line.includes('needs-absent'));
    expect(warnings).toEqual([
      `plugin needs-absent is left out: it needs the module 'vitrine_absent_dependency', which ${PYTHON} cannot import: ` +
        'install it for that Python, or start the host with --python naming one that has it',
    ]);
    expect((await app.inject('/api/processing/functions/shape/schema')).statusCode).toBe(404);
    expect((await app.inject('/api/specimens/py-triangle/data')).statusCode).toBe(200);
    // A reload registers it again from its manifest: it is left out again, and its answer says why.
    const reloaded = (await app.inject('/api/specimens/reload')).json() as { problems: string[] };
    expect(reloaded.problems).toContain(warnings[0]);
    expect((await app.inject('/api/processing/functions/shape/schema')).statusCode).toBe(404);
  });

  it('leaves out, on a reload, a plugin whose import now fails, naming it in the answer; a reload after the fix brings it back', async () => {
    const plugins = await pythonPluginsDir([]);
    await writePythonBundle(plugins, 'breaks', MESH(1));
    const app = await createTestApp({ pluginsDir: plugins, specimensDir: null, python: PYTHON, pythonProcesses: 1 });
    const listed = async () => ((await app.inject('/api/processing/functions')).json() as { name: string }[]).map((f) => f.name);
    const invoke = () => app.inject({ method: 'POST', url: '/api/processing/invoke', payload: { function_name: 'shape' } });
    const reload = async () => (await app.inject('/api/specimens/reload')).json() as { functions: number; plugins: number; problems: string[] };
    expect((await invoke()).json().vertices[3]).toBe(1);

    await writeFile(path.join(plugins, 'breaks', 'plugin.py'), `import vitrine_absent_dependency\n${MESH(2)}`);
    const broken = await reload();
    expect(broken.problems).toEqual([
      `plugin breaks is left out: it needs the module 'vitrine_absent_dependency', which ${PYTHON} cannot import: ` +
        'install it for that Python, or start the host with --python naming one that has it',
    ]);
    expect(broken.functions).toBe(0);
    expect(await listed()).not.toContain('shape');
    expect((await invoke()).statusCode).toBe(404);
    const ids = ((await app.inject('/api/specimens')).json() as { id: string }[]).map((s) => s.id);
    expect(ids).not.toContain('breaks-shape');
    // Reloaded again unchanged, or swapped in alone (as `vitrine dev` does), it stays out, named again.
    expect((await reload()).problems).toEqual(broken.problems);
    expect(await app.vitrine.reloadPlugin('breaks')).toMatchObject({ functions: [], specimens: [], problems: broken.problems });
    expect(await listed()).not.toContain('shape');

    await writeFile(path.join(plugins, 'breaks', 'plugin.py'), MESH(3));
    expect(await reload()).toMatchObject({ functions: 1, plugins: 1, problems: [] });
    expect(await listed()).toContain('shape');
    expect((await invoke()).json().vertices[3]).toBe(3);
  });

  it('names the interpreter that has the missing module, and the option that chooses it', async () => {
    // The Python the host runs is one that cannot import zarr (as a version manager's python3
    // first on PATH lacks the system's packages); the system's Python has it.
    const dir = await mkdtemp(path.join(tmpdir(), 'vitrine-hidden-zarr-'));
    await mkdir(path.join(dir, 'hide'));
    await writeFile(path.join(dir, 'hide', 'zarr.py'), 'raise ModuleNotFoundError("No module named \'zarr\'", name="zarr")\n');
    const python = path.join(dir, 'python3');
    // (The host puts its own module on PYTHONPATH: the hiding folder goes before it.)
    await writeFile(python, `#!/bin/sh\nPYTHONPATH=${path.join(dir, 'hide')}\${PYTHONPATH:+:$PYTHONPATH} exec ${PYTHON} "$@"\n`, { mode: 0o755 });
    const plugins = await pythonPluginsDir();
    await writePythonBundle(plugins, 'needs-zarr', `import zarr\n${MESH(1)}`);
    const log = logLines();
    await createTestApp({ pluginsDir: plugins, python, pythonProcesses: 1, logLevel: 'warn', logStream: log.stream });
    const warning = await log.line((msg) => msg.includes('needs-zarr'));
    expect(warning).toMatch(
      new RegExp(`^plugin needs-zarr is left out: it needs the module 'zarr', which ${python} cannot import; (\\S+) can: start the host with --python \\1$`),
    );
    await rm(dir, { recursive: true, force: true });
  });

  it('serves everything else on a host with no usable Python, saying once that Python plugins are off', async () => {
    const plugins = await pythonPluginsDir();
    const ts = await fixturePluginsDir();
    const { readdir, cp } = await import('node:fs/promises');
    for (const name of await readdir(ts)) await cp(path.join(ts, name), path.join(plugins, name), { recursive: true });
    const log = logLines();
    const app = await createTestApp({ pluginsDir: plugins, python: '/nonexistent/python3', logLevel: 'warn', logStream: log.stream });
    await log.line((msg) => /Python plugins are off/.test(msg));
    await waitFor(
      async () => ((await app.inject('/api/processing/functions/triangle/schema')).statusCode === 404 ? true : undefined),
      'Python functions to leave',
    );
    expect(log.lines().filter((line) => /Python plugins are off/.test(line))).toHaveLength(1);
    const functions = (await app.inject('/api/processing/functions')).json() as { name: string }[];
    expect(functions.length).toBeGreaterThan(0);
    expect(functions.map((f) => f.name)).not.toContain('ramp_volume');
  });

  it('keeps sibling modules of the same name apart, and runs a rebuilt plugin’s new code', async () => {
    const plugins = await pythonPluginsDir([]);
    for (const [name, x] of [['first', 1], ['second', 2]] as const) {
      await writePythonBundle(
        plugins,
        name,
        `from vitrine import MeshResult\nfrom geometry import X\n\ndef ${name}_shape() -> MeshResult:\n    return ([0, 0, 0, X, 0, 0, 0, 1, 0], [0, 1, 2])\n`,
        `${name}_shape`,
      );
      await writeFile(path.join(plugins, name, 'geometry.py'), `X = ${x}\n`);
    }
    const app = await createTestApp({ pluginsDir: plugins, python: PYTHON, pythonProcesses: 1 });
    const x = async (fn: string) => (await app.inject({ method: 'POST', url: '/api/processing/invoke', payload: { function_name: fn } })).json().vertices[3];
    expect([await x('first_shape'), await x('second_shape')]).toEqual([1, 2]);
    await writeFile(path.join(plugins, 'second', 'geometry.py'), 'X = 7\n');
    await app.vitrine.reloadPlugin('second');
    expect([await x('first_shape'), await x('second_shape')]).toEqual([1, 7]);
    await writeFile(path.join(plugins, 'first', 'plugin.py'), MESH(5).replace('def shape', 'def first_shape'));
    await app.vitrine.reload();
    expect(await x('first_shape')).toBe(5);
  });
});
