/**
 * @module module-hint
 * What to tell someone whose Python plugin is left out because its interpreter cannot import a
 * module. Usually another Python on the machine has it: a version manager's or a virtual
 * environment's `python3` comes first on PATH while the system's `/usr/bin/python3` holds the
 * scientific packages the distribution installed. The other candidates are asked, in child
 * processes, whether they import the module; the first that does is named with the option that
 * chooses it.
 */
import { execFile } from 'node:child_process';
import { realpath } from 'node:fs/promises';

/** Interpreters worth naming besides the one in use. */
const CANDIDATES = ['python3', '/usr/bin/python3', '/usr/local/bin/python3'];

const canonical = (path: string): Promise<string> => realpath(path).catch(() => path);

/** Whether `python` imports `module` (a dotted name is imported whole). */
function imports(python: string, module: string): Promise<boolean> {
  return new Promise((resolve) => {
    const check = 'import importlib, sys\nimportlib.import_module(sys.argv[1])';
    execFile(python, ['-c', check, module], { timeout: 15_000 }, (error) => resolve(!error));
  });
}

/** The path of an interpreter other than `current` that imports `module`, or null. */
export async function interpreterWith(module: string, current: string): Promise<string | null> {
  const used = await canonical(current);
  for (const candidate of CANDIDATES) {
    if (candidate === current || (await canonical(candidate)) === used) continue;
    if (await imports(candidate, module)) return candidate;
  }
  return null;
}

/** The sentence a left-out plugin's warning ends with when `python` cannot import `module`. */
export async function missingModuleHint(module: string, python: string): Promise<string> {
  const other = await interpreterWith(module, python);
  const said = `it needs the module '${module}', which ${python} cannot import`;
  if (other) return `${said}; ${other} can: start the host with --python ${other}`;
  return `${said}: install it for that Python, or start the host with --python naming one that has it`;
}
