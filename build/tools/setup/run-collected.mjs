/**
 * @module run-collected
 * Runs a command with its output (stdout and stderr, in the order they came) kept in `out`
 * rather than printed, so checks run side by side can each print theirs whole when it ends,
 * never interleaved. Resolves with the exit code (1 when it could not start or was killed).
 */
import { spawn } from 'node:child_process';

/** Runs `command` with `args`, pushing its output onto `out`; resolves with its exit code. */
export function runCollected(command, args, out, options = {}) {
  return new Promise((resolve) => {
    const child = spawn(command, args, { ...options, stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout.on('data', (chunk) => out.push(chunk));
    child.stderr.on('data', (chunk) => out.push(chunk));
    child.on('error', (error) => out.push(Buffer.from(`${error.message}\n`)));
    child.on('close', (code) => resolve(code ?? 1));
  });
}
