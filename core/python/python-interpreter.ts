/**
 * @module python-interpreter
 * Which Python runs the plugins. Given `--python PATH` (or VITRINE_PYTHON) that one is used.
 * Otherwise `python3`, unless it lacks numpy and the system's `/usr/bin/python3` has it: on
 * machines where a version manager's `python3` comes first on PATH, plugins that import numpy
 * then work without configuration. The probe runs as a child process, never on the event loop.
 *
 * A plugin left out because its interpreter cannot import a module is told which other Python
 * would: usually another one on the machine has it (a version manager's or a virtual
 * environment's `python3` comes first on PATH while the system's `/usr/bin/python3` holds the
 * scientific packages the distribution installed). The other candidates are asked, in child
 * processes, whether they import the module; the first that does is named with the option that
 * chooses it.
 */
import { execFile } from 'node:child_process';
import { realpath } from 'node:fs/promises';

export interface Interpreter {
  path: string;
  version: string;
  numpy: string | null;
}

// numpy's version is read from its installed metadata, not by importing it: the import costs a
// third of a second of CPU, paid by every host with a Python plugin as it starts.
const PROBE =
  'import sys,json\ntry:\n from importlib.metadata import version; import importlib.util as u\n' +
  ' n=version("numpy") if u.find_spec("numpy") else None\nexcept Exception:\n n=None\n' +
  'print(json.dumps({"version": "%d.%d.%d" % sys.version_info[:3], "numpy": n, "ok": sys.version_info >= (3, 8)}))';

/** What `path` is, or null when it does not run (or is older than Python 3.8). */
export function probeInterpreter(path: string): Promise<Interpreter | null> {
  return new Promise((resolve) => {
    execFile(path, ['-c', PROBE], { timeout: 15_000 }, (error, stdout) => {
      if (error) return resolve(null);
      try {
        const found = JSON.parse(stdout.trim()) as { version: string; numpy: string | null; ok: boolean };
        resolve(found.ok ? { path, version: found.version, numpy: found.numpy } : null);
      } catch {
        resolve(null);
      }
    });
  });
}

/** The interpreter to use: the one asked for, or the best default; null when none runs. */
export async function chooseInterpreter(asked: string | null): Promise<Interpreter | null> {
  if (asked) return probeInterpreter(asked);
  const first = await probeInterpreter('python3');
  if (first?.numpy) return first;
  const system = process.platform === 'win32' ? null : await probeInterpreter('/usr/bin/python3');
  if (system?.numpy) return system;
  return first ?? system;
}

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
async function interpreterWith(module: string, current: string): Promise<string | null> {
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
