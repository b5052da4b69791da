/**
 * Python that cannot be started, or is slow to start, never takes the host down with it: a
 * process that cannot be spawned (the interpreter gone, or spawn throwing outright) is a
 * failed start, the host serves on and `/readyz` says Python is degraded until a replacement
 * starts; a plugin slow to import keeps `/readyz` from saying ready while it imports, and holds
 * one process, not every Python call.
 */
import { mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { PythonProcess } from '../../core/python/python-process.ts';
import { PYTHON_MODULE_DIR } from '../../core/python/python-module-dir.ts';
import { createTestApp } from '../helpers/create-test-app.ts';
import { PYTHON, pythonPluginsDir, writePythonBundle } from '../helpers/python-plugins.ts';
import { waitFor } from '../helpers/wait-for.ts';

const invoke = (name: string, kwargs: Record<string, unknown> = {}) => ({
  method: 'POST' as const,
  url: '/api/processing/invoke',
  payload: { function_name: name, kwargs },
});

describe('Python that cannot start, or starts slowly', () => {
  it('fails a process whose spawn throws like one that exited at once', async () => {
    // A NUL byte in the path makes spawn throw before any process exists.
    const proc = new PythonProcess({ python: `${PYTHON}\u0000`, modulePath: PYTHON_MODULE_DIR, maxBytes: 0, maxChildren: 4, log: () => {} });
    await expect(proc.ready).rejects.toThrow(/could not start/);
    expect(proc.exited).toMatch(/could not start/);
  });

  it('serves on while replacements cannot be spawned, says so in /readyz, and recovers by itself', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'vitrine-python-link-'));
    const python = path.join(dir, 'python3');
    await symlink(PYTHON, python);
    const app = await createTestApp({ pluginsDir: await pythonPluginsDir(), python, pythonProcesses: 1 });
    await waitFor(async () => ((await app.inject('/readyz')).statusCode === 200 ? true : undefined), 'the host to be ready');
    await rm(python);
    // The crashed process cannot be replaced: the interpreter is gone.
    expect((await app.inject(invoke('crash'))).json()).toMatchObject({ code: 'SPC_ERR_PLUGIN_PROCESS_EXITED' });
    const notReady = await waitFor(async () => {
      const answer = await app.inject('/readyz');
      return answer.statusCode === 503 ? (answer.json() as { detail: string }) : undefined;
    }, '/readyz to say Python is degraded');
    expect(notReady.detail).toMatch(/^not ready: python: Python is degraded: plugin processes cannot be started \(could not start .*ENOENT/);
    expect((await app.inject('/healthz')).statusCode).toBe(200);
    expect((await app.inject('/api/specimens')).statusCode).toBe(200);
    // The process kept for short calls still serves.
    expect((await app.inject(invoke('triangle', { scale: 2 }))).json().vertices[3]).toBe(2);
    await symlink(PYTHON, python);
    await waitFor(async () => ((await app.inject('/readyz')).statusCode === 200 ? true : undefined), 'a replacement to start');
    expect((await app.inject(invoke('triangle', { scale: 3 }))).json().vertices[3]).toBe(3);
  });

  it('is not ready while a plugin imports slowly, and other plugins answer meanwhile', async () => {
    const plugins = await pythonPluginsDir();
    const gate = path.join(await mkdtemp(path.join(tmpdir(), 'vitrine-import-gate-')), 'open');
    const source = `import os, time\nwhile not os.path.exists(${JSON.stringify(gate)}):\n    time.sleep(0.05)\nfrom vitrine import MeshResult\n\ndef ` +
      `shape() -> MeshResult:\n    return ([0,0,0,1,0,0,0,1,0],[0,1,2])\n`;
    await writePythonBundle(plugins, 'slow-import', source);
    const app = await createTestApp({ pluginsDir: plugins, python: PYTHON, pythonProcesses: 2 });
    const importing = await waitFor(async () => {
      const answer = await app.inject('/readyz');
      return answer.statusCode === 503 && /Python plugins are still being imported/.test(answer.json().detail)
        ? (answer.json() as { detail: string })
        : undefined;
    }, '/readyz to say the plugins are importing');
    expect(importing.detail).toContain('python');
    expect((await app.inject(invoke('triangle', { scale: 7 }))).json().vertices[3]).toBe(7);
    expect((await app.inject('/readyz')).statusCode).toBe(503);
    await writeFile(gate, '');
    await waitFor(async () => ((await app.inject('/readyz')).statusCode === 200 ? true : undefined), 'the import to finish');
    expect((await app.inject(invoke('shape'))).json().vertices[3]).toBe(1);
  });
});
