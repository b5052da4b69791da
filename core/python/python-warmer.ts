/**
 * @module python-warmer
 * Imports the Python plugins into the pool's processes ahead of their calls, one process at a
 * time and one plugin per request, so a plugin slow to import holds one process (calls take
 * the others and import just their own plugin), and a plugin whose import kills its process
 * is known by name. The first process to import each plugin version tells whether it imports:
 * a failure is kept, not tried again, and told to everyone who asks about that version (a reload
 * registers the plugin's functions again, and must take them out again).
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
  /** Plugin versions some process imported (null) or failed to import (the problem). */
  #known = new Map<string, ImportProblem | null>();
  /** Who waits for imports to be known: each is asked again whenever one is. */
  #watchers = new Set<() => void>();
  #imported = new WeakMap<PythonProcess, Set<string>>();
  #busy: PythonProcess | null = null;
  #done: (proc: PythonProcess) => void;

  /** `done` gets each process back once its import is over (it is then idle again). */
  constructor(done: (proc: PythonProcess) => void) {
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
    // A version no longer wanted will not be imported: who waited for it waits no more.
    this.#tell();
  }

  /**
   * Resolves once some process has tried each of `plugins` (now or before) that is still
   * wanted, with the problems of those that failed to import.
   */
  problems(plugins: PythonPlugin[]): Promise<ImportProblem[]> {
    return new Promise((resolve) => {
      const check = () => {
        const wanted = new Set(this.#plugins.map(keyOf));
        if (plugins.some((plugin) => !this.#known.has(keyOf(plugin)) && wanted.has(keyOf(plugin)))) return;
        this.#watchers.delete(check);
        resolve(plugins.map((plugin) => this.#known.get(keyOf(plugin))).filter((problem) => problem != null));
      };
      this.#watchers.add(check);
      check();
    });
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
    return this.#plugins.find((plugin) => !this.#known.get(keyOf(plugin)) && !done?.has(keyOf(plugin)));
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
      if (answer?.ok) this.#learn(plugin, null);
      else this.#fail(plugin, answer?.error ?? 'import failed', answer?.missing ?? null);
    }
  }

  #fail(plugin: PythonPlugin, error: string, missing: string | null): void {
    if (this.#known.get(keyOf(plugin))) return;
    this.#learn(plugin, { plugin, error, missing });
  }

  #learn(plugin: PythonPlugin, problem: ImportProblem | null): void {
    this.#known.set(keyOf(plugin), problem);
    this.#tell();
  }

  #tell(): void {
    for (const watcher of [...this.#watchers]) watcher();
  }
}
