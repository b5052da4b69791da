/**
 * The notebook client (`vitrine.Client`) against a real host process: its unittest suite
 * (test/python/client-py/) run by a real interpreter with numpy, the host's URL in VITRINE_URL.
 */
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PYTHON_MODULE_DIR } from '../../core/python/python-module-dir.ts';
import { startHost, type HostProcess } from '../client/host-process.ts';
import { TEST_PYTHON } from '../helpers/test-python.ts';

const TESTS = fileURLToPath(new URL('./client-py/', import.meta.url));

let host: HostProcess;

beforeAll(async () => {
  host = await startHost();
});

afterAll(async () => {
  await host?.close();
});

describe('vitrine.Client', () => {
  it('passes its unittest suite against a real host', async () => {
    const script = `import sys, unittest; sys.argv = ['unittest', 'discover', '-s', ${JSON.stringify(TESTS)}, '-v']; unittest.main(module=None)`;
    const run = await new Promise<{ code: number; output: string }>((resolve) => {
      execFile(
        TEST_PYTHON,
        ['-c', script],
        { env: { ...process.env, PYTHONPATH: PYTHON_MODULE_DIR, PYTHONDONTWRITEBYTECODE: '1', VITRINE_URL: host.baseUrl }, timeout: 120_000 },
        (error, stdout, stderr) => resolve({ code: error ? Number((error as { code?: number }).code ?? 1) : 0, output: stdout + stderr }),
      );
    });
    expect(run.output).toMatch(/Ran \d+ tests/);
    expect(run.code, `${run.output}\n--- host ---\n${host.output()}`).toBe(0);
  });
});
