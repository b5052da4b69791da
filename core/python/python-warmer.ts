/**
 * @module python-warmer
 * Imports the Python plugins into the pool's processes ahead of their calls, one process at a
 * time and one plugin per request, so a plugin slow to import holds one process (calls take
 * the others and import just their own plugin), and a plugin whose import kills its process
 * is known by name. The first process to import each plugin version tells whether it imports:
 * a failure is reported once (the host takes the plugin out of the catalog) and not tried again.
 */
import type { PythonProcess } from './python-process.ts';

/** A Python plugin as the processes import it. */
export interface PythonPlugin {
  name: string;
  dir: string;
  entry: string;
  version: string;
}

/** A plugin whose import failed, with the module it missed when that was the cause. */
export interface ImportProblem {
  plugin: PythonPlugin;
  error: string;
  missing: string | null;
}

interface LoadAnswer {
  name: string;
  version: string;
  ok: boolean;
  error?: string;
  missing?: string | null;
}

const keyOf = (plugin: PythonPlugin) => `${plugin.name}@${plugin.version}`;

export class PythonWarmer {
  #plugins: PythonPlugin[] = [];
  /** Plugin versions some process imported (true) or failed to import (false). */
  #known = new Map<string, boolean>();
  #imported = new WeakMap<PythonProcess, Set<string>>();
  #busy: PythonProcess | null = null;
  #onProblem: (problem: ImportProblem) => void;
  #done: (proc: PythonProcess) => void;

  /** `done` gets each process back once its import is over (it is then idle again). */
  constructor(onProblem: (problem: ImportProblem) => void, done: (proc: PythonProcess) => void) {
    this.#onProblem = onProblem;
    this.#done = done;
  }

  /** True while a process imports. */
  get busy(): boolean {
    return this.#busy !== null;
  }

  /** True once every current plugin was imported (or failed to) by some process. */
  get warmed(): boolean {
    return this.#plugins.every((plugin) => this.#known.has(keyOf(plugin)));
  }

  setPlugins(plugins: PythonPlugin[]): void {
    this.#plugins = plugins;
  }

  /** Whether `proc` lacks a current plugin that imports. */
  needs(proc: PythonProcess): boolean {
    return this.#missing(proc) !== undefined;
  }

  /** Imports what `proc` lacks, one plugin per request, then hands it back. */
  warm(proc: PythonProcess): void {
    this.#busy = proc;
    void this.#run(proc).finally(() => {
      this.#busy = null;
      this.#done(proc);
    });
  }

  /** `proc` ended: an import it was running is the one that ended it. */
  forget(proc: PythonProcess): void {
    this.#imported.delete(proc);
  }

  #missing(proc: PythonProcess): PythonPlugin | undefined {
    const done = this.#imported.get(proc);
    return this.#plugins.find((plugin) => this.#known.get(keyOf(plugin)) !== false && !done?.has(keyOf(plugin)));
  }

  async #run(proc: PythonProcess): Promise<void> {
    for (let plugin = this.#missing(proc); plugin && proc.exited === null; plugin = this.#missing(proc)) {
      let answer: LoadAnswer | undefined;
      try {
        const frame = await proc.request({ t: 'load', plugins: [plugin] });
        answer = (frame.header.plugins as LoadAnswer[] | undefined)?.[0];
      } catch (error) {
        // The import ended the process (an exit, a crash, a kill past a limit).
        this.#fail(plugin, `its import ended the plugin process (${(error as Error).message})`, null);
        return;
      }
      let done = this.#imported.get(proc);
      if (!done) this.#imported.set(proc, (done = new Set()));
      done.add(keyOf(plugin));
      if (answer?.ok) this.#known.set(keyOf(plugin), true);
      else this.#fail(plugin, answer?.error ?? 'import failed', answer?.missing ?? null);
    }
  }

  #fail(plugin: PythonPlugin, error: string, missing: string | null): void {
    if (this.#known.get(keyOf(plugin)) === false) return;
    this.#known.set(keyOf(plugin), false);
    this.#onProblem({ plugin, error, missing });
  }
}
