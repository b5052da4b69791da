/**
 * @module run-reader
 * Runs `read_plugin.py` over Python plugin modules with the build's interpreter and parses
 * what it prints. One interpreter start reads every module of a build. The interpreter runs
 * isolated (`-I`: no PYTHON* variables, no user site, not the plugin's folder on the path) and
 * writes no bytecode (`-B`), so reading a plugin neither imports nor leaves anything beside it.
 */
import { spawn } from 'node:child_process';
import path from 'node:path';
import { CORE_DIR } from '../../core/loading/package-layout.ts';
import type { ReaderOutput } from './reader-output.ts';

/**
 * The reader script, `build/python/` beside `core/` in the sources and in the compiled package
 * (the compile copies it there). Found from the core folder, not from this module's own file:
 * the compiled command runs this module from a bundle elsewhere.
 */
export const READER_SCRIPT = path.join(CORE_DIR, '..', 'build', 'python', 'read_plugin.py');

/** The reader's exit code when the interpreter is older than Python 3.8. */
const TOO_OLD = 3;

/** Reading long-running is a fault (a blocked interpreter), not a slow plugin. */
const READ_TIMEOUT_MS = 60_000;

export type ReaderRun = { ok: true; output: ReaderOutput } | { ok: false; problem: string };

/** Reads `files` (absolute paths) with `python`; never rejects: a failure is a readable problem. */
export function runReader(python: string, files: string[]): Promise<ReaderRun> {
  return new Promise((resolve) => {
    const child = spawn(python, ['-I', '-B', READER_SCRIPT, ...files], { stdio: ['ignore', 'pipe', 'pipe'] });
    // Not spawn's own `timeout`: its timer outlives a child that never started.
    const timer = setTimeout(() => child.kill('SIGKILL'), READ_TIMEOUT_MS);
    timer.unref();
    const stdout: Buffer[] = [];
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => stdout.push(chunk));
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (text: string) => (stderr += text));
    child.on('error', (error: NodeJS.ErrnoException) => {
      clearTimeout(timer);
      const why =
        error.code === 'ENOENT' ? `the Python interpreter '${python}' was not found` : `the Python interpreter '${python}' could not start (${error.message})`;
      resolve({ ok: false, problem: `${why}; Python plugins are read with Python 3.8 or later: give one with --python PATH or VITRINE_PYTHON` });
    });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      if (code === TOO_OLD)
        return resolve({ ok: false, problem: `${stderr.trim()} (interpreter '${python}'); give another with --python PATH or VITRINE_PYTHON` });
      if (code !== 0) {
        const how = signal ? `was stopped by ${signal}` : `exited with code ${String(code)}`;
        return resolve({ ok: false, problem: `reading with '${python}' ${how}${stderr.trim() ? `: ${lastLine(stderr)}` : ''}` });
      }
      try {
        resolve({ ok: true, output: JSON.parse(Buffer.concat(stdout).toString('utf8')) as ReaderOutput });
      } catch {
        resolve({ ok: false, problem: `'${python}' did not answer as the plugin reader does: is it a Python interpreter?` });
      }
    });
  });
}

function lastLine(text: string): string {
  const lines = text.trim().split(/\r?\n/);
  return lines[lines.length - 1] ?? '';
}
