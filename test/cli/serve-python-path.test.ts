/**
 * The newcomer's path with a Python plugin, through the `vitrine serve` command itself: a
 * `python3` first on PATH that lacks a package the plugin imports (as a pyenv or venv one
 * lacks Debian's zarr) is the Python the host runs by default; the plugin is left out with a
 * warning that names the Python that has the module and the `--python` that chooses it; started
 * with that `--python`, the plugin is served.
 */
import { chmod, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PYTHON, pythonPluginsDir, writePythonBundle } from '../helpers/python-plugins.ts';
import { spawnHost } from '../helpers/spawn-host.ts';
import { waitFor } from '../helpers/wait-for.ts';

let dir: string;
let plugins: string;
/** PATH with a `python3` first that runs the system's Python unable to import zarr. */
let path3: string;

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'vitrine-newcomer-python-'));
  await mkdir(path.join(dir, 'hide'));
  await mkdir(path.join(dir, 'bin'));
  await writeFile(path.join(dir, 'hide', 'zarr.py'), 'raise ModuleNotFoundError("No module named \'zarr\'", name="zarr")\n');
  // (The host puts its own module on PYTHONPATH: the hiding folder goes before it.)
  const shim = path.join(dir, 'bin', 'python3');
  await writeFile(shim, `#!/bin/sh\nPYTHONPATH=${path.join(dir, 'hide')}\${PYTHONPATH:+:$PYTHONPATH} exec ${PYTHON} "$@"\n`);
  await chmod(shim, 0o755);
  path3 = `${path.join(dir, 'bin')}:${process.env.PATH ?? ''}`;
  plugins = await pythonPluginsDir([]);
  const mesh = 'from vitrine import MeshResult\n\ndef shape() -> MeshResult:\n    return ([0, 0, 0, zarr_ok(), 0, 0, 0, 1, 0], [0, 1, 2])\n';
  await writePythonBundle(plugins, 'needs-zarr', `import zarr\n\n\ndef zarr_ok():\n    return 1 if zarr.__name__ == "zarr" else 0\n\n\n${mesh}`);
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

const args = () => ['--port', '0', '--plugins', plugins, '--specimens', 'none', '--no-viewer', '--python-processes', '1'];

describe('a Python plugin needing a package the first python3 on PATH lacks', () => {
  it('is left out by `vitrine serve`, which says which --python has the module', async () => {
    const host = await spawnHost(args(), { env: { PATH: path3, VITRINE_PYTHON: undefined } });
    try {
      await waitFor(() => (host.stderr().includes('needs-zarr is left out') ? true : undefined), 'the warning');
      const warning = host.stderr().split('\n').find((line) => line.includes('needs-zarr is left out'))!;
      expect(warning).toContain("it needs the module 'zarr'");
      expect(warning).toMatch(/start the host with --python \S+/);
      const functions = (await (await fetch(`${host.url}/api/processing/functions`)).json()) as { name: string }[];
      expect(functions.map((f) => f.name)).not.toContain('shape');
    } finally {
      await host.stop();
    }
  });

  it('serves it when started with the --python the warning names', async () => {
    const host = await spawnHost([...args(), '--python', PYTHON], { env: { PATH: path3 } });
    try {
      const answer = await waitFor(async () => {
        const res = await fetch(`${host.url}/api/processing/invoke`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ function_name: 'shape', kwargs: {} }),
        });
        return res.status === 200 ? ((await res.json()) as { vertices: number[] }) : undefined;
      }, 'the plugin to answer');
      expect(answer.vertices[3]).toBe(1);
    } finally {
      await host.stop();
    }
  });
});
