/**
 * @module notebook-process
 * A notebook-like client for benchmarks: Debian's Python 3 with the `vitrine` package on its path,
 * running one statement at a time as a notebook's cells run (each sent on a line, answered with a
 * line once done), in one long-lived interpreter holding its variables between statements.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { PYTHON_MODULE_DIR } from '../../core/python/python-module-dir.ts';
import { TEST_PYTHON } from '../helpers/test-python.ts';

// Each line read is one cell: run it, then answer `ok` or the error, on one line.
const KERNEL = `
import json, sys, traceback
cells = {}
for line in sys.stdin:
    try:
        exec(json.loads(line), cells)
        print(json.dumps({"ok": True}), flush=True)
    except Exception as error:
        print(json.dumps({"error": "".join(traceback.format_exception_only(type(error), error)).strip()}), flush=True)
`;

export interface Notebook {
  /** Runs `code` (statements), resolving once it ran; rejects with the Python error. */
  run(code: string): Promise<void>;
  close(): Promise<void>;
}

export function startNotebook(env: Record<string, string>): Notebook {
  const child: ChildProcess = spawn(TEST_PYTHON, ['-u', '-c', KERNEL], {
    env: { ...process.env, PYTHONPATH: PYTHON_MODULE_DIR, PYTHONDONTWRITEBYTECODE: '1', ...env },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => (stderr += String(chunk)));
  const waiting: ((line: string) => void)[] = [];
  createInterface({ input: child.stdout! }).on('line', (line) => waiting.shift()?.(line));
  return {
    run(code) {
      return new Promise((resolve, reject) => {
        waiting.push((line) => {
          const answer = JSON.parse(line) as { ok?: true; error?: string };
          if (answer.error) reject(new Error(`the notebook's cell failed: ${answer.error}\n${code}\n${stderr}`));
          else resolve();
        });
        child.stdin!.write(`${JSON.stringify(code)}\n`);
      });
    },
    close() {
      return new Promise((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.stdin!.end();
      });
    },
  };
}
