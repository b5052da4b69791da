/**
 * The `vitrine` Python module's own tests (test/python/py/, unittest), run by a real
 * interpreter twice: with numpy, and with numpy made unimportable, since the module must work
 * on the standard library alone. Its version is vitrine's.
 */
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { REPO } from '../helpers/cli-path.ts';
import { describe, expect, it } from 'vitest';
import { PYTHON_MODULE_DIR } from '../../core/python/python-module-dir.ts';
import { PYTHON } from '../helpers/python-plugins.ts';

const TESTS = fileURLToPath(new URL('./py/', import.meta.url));

function unittest(blockNumpy: boolean): Promise<{ code: number; output: string }> {
  const prelude = blockNumpy ? "import sys; sys.modules['numpy'] = None; " : 'import sys; ';
  const script = `${prelude}import unittest; sys.argv = ['unittest', 'discover', '-s', ${JSON.stringify(TESTS)}, '-v']; unittest.main(module=None)`;
  return new Promise((resolve) => {
    execFile(PYTHON, ['-c', script], { env: { ...process.env, PYTHONPATH: PYTHON_MODULE_DIR, PYTHONDONTWRITEBYTECODE: '1' } }, (error, stdout, stderr) => {
      resolve({ code: error ? Number((error as { code?: number }).code ?? 1) : 0, output: stdout + stderr });
    });
  });
}

describe('the vitrine Python module', () => {
  it('passes its unittest suite with numpy', async () => {
    const run = await unittest(false);
    expect(run.output).toMatch(/Ran \d+ tests/);
    expect(run.code, run.output).toBe(0);
  });

  it("says vitrine's version, as package.json and pyproject.toml do (the client sends it as its User-Agent)", async () => {
    const own = (JSON.parse(readFileSync(path.join(REPO, 'package.json'), 'utf8')) as { version: string }).version;
    const pyproject = /^version = "([^"]+)"$/m.exec(readFileSync(path.join(PYTHON_MODULE_DIR, 'pyproject.toml'), 'utf8'))?.[1];
    expect(pyproject).toBe(own);
    const said = await new Promise<string>((resolve, reject) =>
      execFile(PYTHON, ['-c', 'import vitrine; print(vitrine.__version__)'], { env: { ...process.env, PYTHONPATH: PYTHON_MODULE_DIR } }, (error, stdout) =>
        error ? reject(error) : resolve(stdout.trim()),
      ),
    );
    expect(said).toBe(own);
  });

  it('passes its unittest suite on the standard library alone', async () => {
    const run = await unittest(true);
    expect(run.output).toMatch(/Ran \d+ tests/);
    expect(run.code, run.output).toBe(0);
  });
});
