/**
 * @module python-options
 * The host options of Python plugins (`--python`, `--python-processes`, `--python-max-bytes`,
 * `--python-max-children`): their defaults and checks, beside the processes they configure;
 * options.ts folds them into the host's.
 */
import { totalmem } from 'node:os';

export interface PythonHostOptions {
  /**
   * The Python interpreter that runs Python plugins (`--python`). Null chooses: `python3`, or
   * `/usr/bin/python3` when only that one has numpy. @defaultValue null
   */
  python?: string | null;
  /** Warm Python plugin processes (`--python-processes`). @defaultValue the pool size */
  pythonProcesses?: number | null;
  /**
   * Address space each Python plugin process may take, bytes (`--python-max-bytes`): a runaway
   * allocation raises MemoryError in its own process instead of starving the machine.
   * @defaultValue half the machine's memory
   */
  pythonMaxBytes?: number;
  /**
   * Processes each Python plugin process may run besides itself (`--python-max-children`):
   * past it the process and everything it started are ended (its call fails). @defaultValue 32
   */
  pythonMaxChildren?: number;
}

export const PYTHON_DEFAULTS = Object.freeze({ python: null, pythonMaxBytes: Math.floor(totalmem() / 2), pythonMaxChildren: 32 });

/** The numeric Python options and their rules (options.ts checks them with the others). */
export const PYTHON_NUMBER_RULES = [['pythonMaxChildren', { zero: true, integer: true }]] as const;

/** Throws a TypeError when the interpreter named is not a path (null chooses one). */
export function checkPythonOptions(o: { python: unknown }): void {
  const python = o.python;
  if (python !== null && (typeof python !== 'string' || python.trim() === ''))
    throw new TypeError(`python must be an interpreter path or null, got '${String(python)}'`);
}
