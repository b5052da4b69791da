/**
 * @module invoker
 * One interface for running a registered function wherever it lives: the worker pool
 * (plugin bundles), the main thread (code-registered functions) or a relayed worker.
 */
import type { FunctionEntry, FunctionSource } from '../registry/function-entry.ts';
import type { ArrivingResult } from '../results/payload-fill.ts';
import type { StoredResult } from '../results/stored-result.ts';

export interface ProgressUpdate {
  text: string;
  fraction: number | null;
  /** Seconds since the Unix epoch. */
  ts: number;
}

export interface InvokeContext {
  /** Aborting it cancels the run; the invoker then rejects with SPC_ERR_JOB_CANCELLED. */
  signal: AbortSignal;
  /** Called for each `report()` of the function; absent outside jobs. */
  onProgress?: (update: ProgressUpdate) => void;
  /** Called when the function itself starts (after any wait for a thread and the bundle's loading). */
  onRunning?: () => void;
  /**
   * Called with how long the call took (ms) when the thread that ran it measured it, before the
   * run resolves: its length free of the host's own delays (a busy host reads results late).
   */
  onRan?: (ms: number) => void;
  /** The room the request came from (relayed runs keep rooms across machines). */
  roomId?: string;
  /** The job that started this run, if one did: a relayed run's worker keeps it under that id. */
  job?: JobRef;
  /**
   * Called by invokers whose results arrive over time (relayed ones) once the result's shape
   * is known and before its bytes are all in, so the first reply can start early.
   */
  onArriving?: (arriving: ArrivingResult) => void;
}

export interface JobRef {
  id: string;
  specimenId: string | null;
}

export interface Invoker {
  /**
   * Runs `entry` with checked parameter values.
   * @throws HostError: SPC_ERR_FUNCTION_FAILED, SPC_ERR_RESULT_INVALID, SPC_ERR_WORKER_CRASHED,
   * SPC_ERR_JOB_CANCELLED, or a federation error for relayed functions.
   */
  invoke(entry: FunctionEntry, values: Record<string, unknown>, ctx: InvokeContext): Promise<StoredResult>;
}

/**
 * Invokers by function source. The host registers `bundle` and `inline`; a relay registers
 * `remote` when it installs federation. Each kind is registered once.
 */
export class InvokerSet {
  #byKind = new Map<FunctionSource['kind'], Invoker>();

  constructor(initial: { [K in FunctionSource['kind']]?: Invoker } = {}) {
    for (const [kind, invoker] of Object.entries(initial)) this.register(kind as FunctionSource['kind'], invoker);
  }

  /** Makes `invoker` run the functions of source `kind`; throws when that kind has one already. */
  register(kind: FunctionSource['kind'], invoker: Invoker): void {
    if (this.#byKind.has(kind)) throw new Error(`an invoker of '${kind}' functions is registered already`);
    this.#byKind.set(kind, invoker);
  }

  /** The invoker of `kind` functions, if one is registered. */
  get(kind: FunctionSource['kind']): Invoker | undefined {
    return this.#byKind.get(kind);
  }
}

/** The positional argument list: values by parameter order, null where the host injects. */
export function toPositionalArgs(entry: FunctionEntry, values: Record<string, unknown>): unknown[] {
  const args = entry.parameters.map((p) => (p.kind === 'value' ? values[p.name] : null));
  // Trailing absent optional values stay absent so the function's own defaults apply.
  while (args.length > 0 && args[args.length - 1] === undefined) args.pop();
  return args;
}

export function indexOfKind(entry: FunctionEntry, kind: 'reporter' | 'signal'): number {
  return entry.parameters.findIndex((p) => p.kind === kind);
}
