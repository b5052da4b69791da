/**
 * The notebook client against one real host process: `vitrine.Client`'s unittest suite
 * (test/python/client-py/) run by a real interpreter with numpy, the host's URL in
 * VITRINE_URL; and the example notebook (docs/notebook-example.ipynb) run top to bottom with
 * Debian's `jupyter nbconvert --execute` and a kernel of Debian's Python 3 that has the
 * `vitrine` module on its path (where nbconvert is not installed, its code cells run in order
 * as one script with the same interpreter). No cell may raise, and what it publishes and shows
 * is then on the host.
 */
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PYTHON_MODULE_DIR } from '../../core/python/python-module-dir.ts';
import { startHost, type HostProcess } from '../client/host-process.ts';
import { TEST_PYTHON } from '../helpers/test-python.ts';

const TESTS = fileURLToPath(new URL('./client-py/', import.meta.url));
const NOTEBOOK = fileURLToPath(new URL('../../docs/notebook-example.ipynb', import.meta.url));
const NBCONVERT = '/usr/bin/jupyter-nbconvert';
const KERNEL = 'vitrine-test-python';

interface Cell {
  cell_type: string;
  source: string | string[];
  outputs?: { output_type: string; text?: string | string[]; ename?: string; evalue?: string }[];
}

let host: HostProcess;
let work: string;

beforeAll(async () => {
  host = await startHost();
  work = await mkdtemp(path.join(tmpdir(), 'vitrine-notebook-'));
});

afterAll(async () => {
  await host?.close();
  if (work) await rm(work, { recursive: true, force: true });
});

function run(file: string, args: string[], env: NodeJS.ProcessEnv): Promise<{ code: number; output: string }> {
  return new Promise((resolve) => {
    execFile(file, args, { env: { ...process.env, ...env }, timeout: 180_000, maxBuffer: 16 * 1024 * 1024 }, (error, stdout, stderr) => {
      resolve({ code: error ? Number((error as { code?: number }).code ?? 1) : 0, output: stdout + stderr });
    });
  });
}

const text = (value: string | string[] | undefined): string => (Array.isArray(value) ? value.join('') : (value ?? ''));

/** A kernel spec (in a folder of its own on JUPYTER_PATH) that runs the test interpreter with the module on its path. */
async function kernelPath(): Promise<string> {
  const dir = path.join(work, 'jupyter');
  await mkdir(path.join(dir, 'kernels', KERNEL), { recursive: true });
  const spec = {
    argv: [TEST_PYTHON, '-m', 'ipykernel_launcher', '-f', '{connection_file}'],
    display_name: 'vitrine test',
    language: 'python',
    env: { PYTHONPATH: PYTHON_MODULE_DIR, VITRINE_URL: host.baseUrl },
  };
  await writeFile(path.join(dir, 'kernels', KERNEL, 'kernel.json'), JSON.stringify(spec));
  return dir;
}

describe('vitrine.Client', () => {
  it('passes its unittest suite against a real host', async () => {
    const script = `import sys, unittest; sys.argv = ['unittest', 'discover', '-s', ${JSON.stringify(TESTS)}, '-v']; unittest.main(module=None)`;
    const result = await run(TEST_PYTHON, ['-c', script], { PYTHONPATH: PYTHON_MODULE_DIR, PYTHONDONTWRITEBYTECODE: '1', VITRINE_URL: host.baseUrl });
    expect(result.output).toMatch(/Ran \d+ tests/);
    expect(result.code, `${result.output}\n--- host ---\n${host.output()}`).toBe(0);
  });
});

describe('the example notebook', () => {
  it('runs every cell against a real host, and its volume is published and shown in room lab', async () => {
    const env = { VITRINE_URL: host.baseUrl, PYTHONPATH: PYTHON_MODULE_DIR, PYTHONDONTWRITEBYTECODE: '1' };
    let printed: string;
    if (existsSync(NBCONVERT)) {
      const out = path.join(work, 'executed.ipynb');
      const args = [
        '--to',
        'notebook',
        '--execute',
        NOTEBOOK,
        '--output',
        out,
        `--ExecutePreprocessor.kernel_name=${KERNEL}`,
        '--ExecutePreprocessor.timeout=120',
      ];
      const result = await run(NBCONVERT, args, {
        ...env,
        JUPYTER_PATH: await kernelPath(),
        JUPYTER_DATA_DIR: path.join(work, 'data'),
        JUPYTER_RUNTIME_DIR: path.join(work, 'runtime'),
      });
      expect(result.code, result.output).toBe(0);
      const cells = (JSON.parse(await readFile(out, 'utf8')) as { cells: Cell[] }).cells.filter((c) => c.cell_type === 'code');
      const errors = cells.flatMap((c) => c.outputs ?? []).filter((o) => o.output_type === 'error');
      expect(errors.map((e) => `${e.ename}: ${e.evalue}`)).toEqual([]);
      printed = cells.flatMap((c) => c.outputs ?? []).map((o) => text(o.text)).join('');
    } else {
      // No nbconvert here: the code cells, in order, as one script.
      const cells = (JSON.parse(await readFile(NOTEBOOK, 'utf8')) as { cells: Cell[] }).cells.filter((c) => c.cell_type === 'code');
      const result = await run(TEST_PYTHON, ['-c', cells.map((c) => text(c.source)).join('\n\n')], env);
      expect(result.code, result.output).toBe(0);
      printed = result.output;
    }
    expect(printed).toMatch(/room lab shows .*notebook-blobs/);
    expect(printed).toMatch(/as a headset gets it: \(16, 16, 16\) uint8/);

    const catalog = (await (await fetch(`${host.baseUrl}/api/specimens/`)).json()) as { id: string; display_name: string }[];
    expect(catalog.find((s) => s.id === 'notebook-blobs')?.display_name).toBe('Two blobs (from a notebook)');
    const entry = (await (await fetch(`${host.baseUrl}/api/rooms/lab/entry`)).json()) as { specimen_id: string };
    expect(entry.specimen_id).toBe('notebook-blobs');
    const view = (await (await fetch(`${host.baseUrl}/api/rooms/lab/view`)).json()) as Record<string, unknown>;
    expect(view).toMatchObject({ window: [2000, 40000], colormap: 'magma', mode: 'slices' });
  });
});
