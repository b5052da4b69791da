/**
 * @module python-runtime
 * Python plugins in a host or a compute worker. Nothing starts until the registry holds a
 * Python function: then the interpreter is chosen (python-interpreter.ts) and the warm
 * processes start (python-pool.ts), off the event loop, while the catalog already answers
 * from the manifests. A plugin whose import fails in the processes leaves the catalog again,
 * named with the module it missed: in one warning when the host starts, in the answer of a
 * reload or a plugin swap (which register its functions again, so the rule is applied again);
 * with no usable Python at all, every Python plugin leaves with one line saying Python plugins
 * are off.
 */
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { createHostError } from '../errors.ts';
import type { InvokeContext, Invoker } from '../invoke/invoker.ts';
import { SHORT_LANE_THREADS, type RoomScheduler } from '../invoke/room-scheduler.ts';
import { inputKindOf } from '../wire/input-schema.ts';
import type { FunctionEntry } from '../registry/function-entry.ts';
import type { StoredResult } from '../results/stored-result.ts';
import type { Frame } from './frame-codec.ts';
import type { FunctionRegistry } from '../registry/function-registry.ts';
import type { SpecimenCatalog } from '../registry/specimen-catalog.ts';
import { chooseInterpreter, missingModuleHint, type Interpreter } from './python-interpreter.ts';
import { PYTHON_MODULE_DIR } from './python-module-dir.ts';
import { PythonPool, PythonUnavailable, type PythonPoolOptions } from './python-pool.ts';
import { PythonProcessExit } from './python-process.ts';
import { inputSpec, ResultFrameError, toStoredResult } from './python-results.ts';
import type { ImportProblem, PythonPlugin } from './python-warmer.ts';

export interface PythonRuntimeOptions extends Pick<PythonPoolOptions, 'processes' | 'cancelGraceMs' | 'maxBytes' | 'maxChildren' | 'log'> {
  /** The interpreter asked for (`--python`), or null for the default choice. */
  python: string | null;
  /** Start the processes as soon as there are Python plugins (false: a front end that computes nothing). */
  warm: boolean;
}

/** Where Python functions are registered and listed: what a failed import is taken out of. */
export interface PythonTargets {
  functions: Pick<FunctionRegistry, 'list' | 'removeWhere'>;
  catalog: Pick<SpecimenCatalog, 'removeSource'> | null;
}

/**
 * How long a reload or a plugin swap waits for the processes to import what changed before it
 * answers (a plugin whose import fails later is still taken out, with a warning in the log).
 */
export const RELOAD_IMPORT_WAIT_MS = 30_000;

/** A plugin taken out because its import failed, and the line that says so. */
export interface LeftOutPlugin {
  plugin: string;
  line: string;
}

/** True for a function of a Python plugin bundle. */
export function isPythonFunction(entry: FunctionEntry): boolean {
  return entry.source.kind === 'bundle' && entry.source.runtime === 'python';
}

export class PythonRuntime {
  readonly invoker: PythonInvoker;
  #o: PythonRuntimeOptions;
  #pool: Promise<PythonPool> | null = null;
  /** The pool once it runs (for readiness, read without waiting). */
  #running: PythonPool | null = null;
  /** Python plugins are registered and this process computes: the processes should run. */
  #wanted = false;
  #interpreter: Promise<Interpreter | null> | null = null;
  /** The interpreter the processes run, once chosen (the hint of a failed import names it). */
  #python = '';
  #targets: PythonTargets | null = null;
  #saidOff = false;

  constructor(options: PythonRuntimeOptions, scheduler: RoomScheduler) {
    this.#o = options;
    this.invoker = new PythonInvoker(() => this.#start(), scheduler, (line) => options.log.warn(line));
  }

  /**
   * Makes the processes import what the registry now holds (after a reload or a plugin swap)
   * and takes out each plugin whose import fails. Resolves, once every plugin's import is known
   * or `waitMs` has passed, with the plugins left out; those known later are warned in the log.
   * With `waitMs` 0 (a host starting: its catalog answers from the manifests meanwhile, and
   * readiness says when the imports are done), or while the pool is degraded, it resolves at
   * once and every one is warned.
   */
  async sync(targets: PythonTargets, waitMs = 0): Promise<LeftOutPlugin[]> {
    this.#targets = targets;
    const plugins = pythonPlugins(targets.functions.list());
    if (plugins.length === 0 || !this.#o.warm) return [];
    this.#wanted = true;
    const leftOut = this.#start().then(
      async (pool) => {
        pool.setPlugins(plugins);
        return this.#leaveOut(await pool.importProblems(plugins));
      },
      () => {
        this.#dropAll();
        return [];
      },
    );
    // Processes that cannot be started import nothing until they can: no answer waits on them.
    const wait = this.#running?.degraded == null ? waitMs : 0;
    const answered = wait > 0 ? await Promise.race([leftOut, sleep(wait, null, { ref: false })]) : null;
    if (answered === null) void leftOut.then((late) => late.forEach(({ line }) => this.#o.log.warn(line)));
    return answered ?? [];
  }

  /**
   * Why Python plugins cannot be served yet, or null: the processes are starting, the plugins
   * are still being imported (a first process has not imported them all), or processes cannot
   * be started (degraded; the pool keeps trying).
   */
  notReady(): string | null {
    if (!this.#wanted || this.#saidOff) return null;
    const pool = this.#running;
    if (!pool) return 'Python plugin processes are starting';
    if (pool.degraded !== null) return `Python is degraded: ${pool.degraded}`;
    return pool.warmed ? null : 'Python plugins are still being imported';
  }

  async close(): Promise<void> {
    const pool = await this.#pool?.catch(() => null);
    await pool?.close();
  }

  #start(): Promise<PythonPool> {
    if (this.#pool) return this.#pool;
    this.#interpreter ??= chooseInterpreter(this.#o.python);
    this.#pool = this.#interpreter.then((interpreter) => {
      if (!interpreter) throw new Error(`Python plugins are off: no Python 3.8+ interpreter runs as ${this.#o.python ?? 'python3'} (set --python PATH)`);
      this.#python = interpreter.path;
      this.#o.log.info(
        `python: ${interpreter.path} (Python ${interpreter.version}, ${interpreter.numpy ? `numpy ${interpreter.numpy}` : 'no numpy'}), ` +
          `${this.#o.processes} plugin processes and ${SHORT_LANE_THREADS} for short calls`,
      );
      // The runtime's options are the pool's, with the interpreter chosen.
      this.#running = new PythonPool({
        ...this.#o,
        python: interpreter.path,
        modulePath: PYTHON_MODULE_DIR,
        // A process kept for short calls, as the compute threads keep a lane (compute-scheduling.md).
        spare: SHORT_LANE_THREADS,
      });
      return this.#running;
    });
    this.#pool.catch(() => {});
    return this.#pool;
  }

  /** Takes the plugins of `problems` out (at once), then says why, each with its hint. */
  #leaveOut(problems: ImportProblem[]): Promise<LeftOutPlugin[]> {
    for (const { plugin } of problems) {
      this.#remove(
        (entry) => isPythonFunction(entry) && entry.plugin === plugin.name && entry.source.kind === 'bundle' && entry.source.version === plugin.version,
      );
    }
    return Promise.all(
      problems.map(async (problem) => {
        // Which interpreter would import what it needs (asked in child processes: after it left).
        const why = problem.missing ? await missingModuleHint(problem.missing, this.#python) : problem.error;
        return { plugin: problem.plugin.name, line: `plugin ${problem.plugin.name} is left out: ${why}` };
      }),
    );
  }

  #dropAll(): void {
    if (!this.#saidOff) {
      this.#saidOff = true;
      void this.#pool?.catch((error: Error) => this.#o.log.warn(error.message));
    }
    this.#remove(isPythonFunction);
  }

  #remove(predicate: (entry: FunctionEntry) => boolean): void {
    const targets = this.#targets;
    if (!targets) return;
    const plugins = new Set(targets.functions.list().filter(predicate).map((entry) => entry.plugin));
    targets.functions.removeWhere(predicate);
    for (const plugin of plugins) if (plugin) targets.catalog?.removeSource(`plugin:${plugin}`);
  }
}

/** The distinct Python plugins among `entries`. */
export function pythonPlugins(entries: FunctionEntry[]): PythonPlugin[] {
  const byName = new Map<string, PythonPlugin>();
  for (const entry of entries) {
    if (entry.source.kind !== 'bundle' || entry.source.runtime !== 'python') continue;
    const name = entry.plugin ?? entry.name;
    byName.set(name, { name, dir: path.dirname(entry.source.modulePath), entry: path.basename(entry.source.modulePath), version: entry.source.version });
  }
  return [...byName.values()];
}

/**
 * The invoker of Python plugin functions: a thread slot from the room scheduler first (so Python runs
 * share the machine round-robin across rooms with TypeScript ones, short work keeping its
 * lane), then a warm process from the pool. Values travel in the call frame's JSON header;
 * input results as raw blocks beside it. The answer is the result, the function's exception
 * (its type and message: the traceback goes to the log) or the news that the process ended.
 */
export class PythonInvoker implements Invoker {
  #pool: () => Promise<PythonPool>;
  #scheduler: RoomScheduler;
  #log: (line: string) => void;
  #nextId = 1;

  /** `pool` resolves with the running pool (started on first need) or rejects when Python is off. */
  constructor(pool: () => Promise<PythonPool>, scheduler: RoomScheduler, log: (line: string) => void) {
    this.#pool = pool;
    this.#scheduler = scheduler;
    this.#log = log;
  }

  async invoke(entry: FunctionEntry, values: Record<string, unknown>, ctx: InvokeContext): Promise<StoredResult> {
    const source = entry.source;
    if (source.kind !== 'bundle' || source.runtime !== 'python') throw new Error(`the Python invoker cannot run ${entry.name}`);
    if (ctx.signal.aborted) throw createHostError('SPC_ERR_JOB_CANCELLED');
    const pool = await this.#pool();
    const release = await this.#scheduler.acquire(ctx.roomId ?? '', ctx.signal, entry.name);
    let answer: Frame;
    try {
      const { header, blocks } = this.#callFrame(entry, values);
      answer = await pool.call(header, blocks, ctx.signal, (frame) => {
        if (ctx.signal.aborted) return;
        // A batch of reports (the process sends those that come close together in one frame).
        const reports = Array.isArray(frame.header.reports) ? (frame.header.reports as { text?: unknown; fraction?: unknown }[]) : [];
        const ts = Date.now() / 1000;
        for (const { text, fraction } of reports) {
          ctx.onProgress?.({ text: String(text ?? ''), fraction: typeof fraction === 'number' && Number.isFinite(fraction) ? fraction : null, ts });
        }
      }, release.running, release.short);
    } catch (error) {
      if (ctx.signal.aborted) throw createHostError('SPC_ERR_JOB_CANCELLED');
      if (error instanceof PythonProcessExit) throw createHostError('SPC_ERR_PLUGIN_PROCESS_EXITED', entry.name, error.message);
      if (error instanceof PythonUnavailable)
        throw Object.assign(createHostError('SPC_ERR_PYTHON_UNAVAILABLE', entry.name, error.message), { headers: { 'retry-after': '5' } });
      throw error;
    } finally {
      release(!ctx.signal.aborted);
    }
    return this.#outcome(entry, answer, ctx);
  }

  #callFrame(entry: FunctionEntry, values: Record<string, unknown>): { header: Record<string, unknown> & { t: string }; blocks: ArrayBufferView[] } {
    const source = entry.source as Extract<FunctionEntry['source'], { kind: 'bundle' }>;
    const properties = ((entry.schema as { properties?: Record<string, unknown> }).properties ?? {}) as Record<string, unknown>;
    const args: Record<string, unknown> = {};
    const inputs: Record<string, unknown>[] = [];
    const blocks: ArrayBufferView[] = [];
    for (const [name, value] of Object.entries(values)) {
      if (value === undefined) continue;
      if (inputKindOf(properties[name]) && value && typeof value === 'object' && 'type' in value) {
        const input = inputSpec(name, value as StoredResult);
        inputs.push(input.spec);
        blocks.push(...input.blocks);
      } else args[name] = value;
    }
    const reporter = entry.parameters.find((p) => p.kind === 'reporter')?.name ?? null;
    return {
      header: {
        t: 'call',
        id: this.#nextId++,
        plugin: { name: entry.plugin ?? entry.name, dir: path.dirname(source.modulePath), entry: path.basename(source.modulePath), version: source.version },
        function: source.exportName,
        return_type: entry.return_type,
        args,
        inputs,
        reporter,
      },
      blocks,
    };
  }

  #outcome(entry: FunctionEntry, answer: Frame, ctx: InvokeContext): StoredResult {
    const header = answer.header;
    if (header.t === 'result') {
      try {
        return toStoredResult(answer, entry.return_type);
      } catch (error) {
        if (error instanceof ResultFrameError) throw createHostError('SPC_ERR_RESULT_INVALID', entry.name, error.message);
        throw error;
      }
    }
    if (header.kind === 'cancelled' || ctx.signal.aborted) throw createHostError('SPC_ERR_JOB_CANCELLED');
    if (header.kind === 'result') throw createHostError('SPC_ERR_RESULT_INVALID', entry.name, String(header.message));
    if (typeof header.traceback === 'string') this.#log(`function '${entry.name}' raised:\n${header.traceback.trimEnd()}`);
    throw createHostError('SPC_ERR_FUNCTION_FAILED', entry.name, String(header.message ?? 'failed'));
  }
}
