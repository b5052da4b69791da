/**
 * @module python-interpreter
 * Which Python reads Python plugins at build time: `--python PATH`, else the environment's
 * `VITRINE_PYTHON`, else `python3` from PATH. Reading needs only the standard library of
 * Python 3.8 or later, so any interpreter will do; the plugin's own imports need not be there.
 */

/** The interpreter used when nothing names one. */
export const DEFAULT_PYTHON = 'python3';

/** The environment variable naming the interpreter (the host's `--python` reads it too). */
export const PYTHON_ENV = 'VITRINE_PYTHON';

/** The interpreter to run: `explicit` when given, else the environment's, else `python3`. */
export function resolvePython(explicit?: string, env: NodeJS.ProcessEnv = process.env): string {
  if (explicit !== undefined && explicit !== '') return explicit;
  const fromEnv = env[PYTHON_ENV];
  return fromEnv !== undefined && fromEnv !== '' ? fromEnv : DEFAULT_PYTHON;
}
