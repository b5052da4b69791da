/**
 * @module call-plugin-function
 * Calls one plugin function the way every host path does (worker thread, main thread, the
 * `vitrine/testing` helper): the progress reporter and the abort signal are injected at their
 * parameter positions, the outcome is classified, and the value is checked and normalised.
 * A failure is a value, so a thrown plugin error never looks like a crash of the caller.
 */
import type { ProgressReporter } from '../sdk/plugin-types.ts';
import type { ResultType } from '../sdk/result-types.ts';
import { normalizeResult, ResultShapeError } from './normalize-result.ts';
import type { StoredResult } from './stored-result.ts';

/** One `report(text, fraction)` of a run; a fraction that is not a finite number is null. */
export interface ReportedProgress {
  text: string;
  fraction: number | null;
  /** Seconds since the Unix epoch. */
  ts: number;
}

/** How a call ended. `function`: it threw; `result`: it returned the wrong shape. */
export type CallOutcome =
  | { ok: true; result: StoredResult }
  | { ok: false; kind: 'function' | 'result' | 'cancelled'; message: string; cause?: unknown };

export interface PluginCall {
  fn: (...args: unknown[]) => unknown;
  /** Positional arguments; the injected slots are overwritten. */
  args: unknown[];
  /** Where the ProgressReporter goes (-1: the function takes none). */
  reporterIndex: number;
  /** Where the AbortSignal goes (-1: the function takes none). */
  signalIndex: number;
  returnType: ResultType;
  /** Aborted on cancel: the function's signal aborts and its next `report()` throws. */
  signal: AbortSignal;
  /** A second cancel source read between steps (a worker thread's shared flag). */
  isCancelled?: () => boolean;
  onProgress?: (progress: ReportedProgress) => void;
}

class CancelledError extends Error {}

export async function callPluginFunction(call: PluginCall): Promise<CallOutcome> {
  const cancelled = () => call.signal.aborted || (call.isCancelled?.() ?? false);
  if (cancelled()) return { ok: false, kind: 'cancelled', message: 'cancelled' };
  const reporter: ProgressReporter = {
    report(text: string, fraction?: number) {
      if (cancelled()) throw new CancelledError('cancelled');
      call.onProgress?.({
        text: String(text),
        fraction: typeof fraction === 'number' && Number.isFinite(fraction) ? fraction : null,
        ts: Date.now() / 1000,
      });
    },
  };
  const args = [...call.args];
  if (call.reporterIndex >= 0) args[call.reporterIndex] = reporter;
  if (call.signalIndex >= 0) args[call.signalIndex] = call.signal;
  let value: unknown;
  try {
    value = await call.fn(...args);
  } catch (error) {
    if (error instanceof CancelledError || cancelled()) return { ok: false, kind: 'cancelled', message: 'cancelled' };
    return { ok: false, kind: 'function', message: error instanceof Error ? error.message : String(error), cause: error };
  }
  if (cancelled()) return { ok: false, kind: 'cancelled', message: 'cancelled' };
  try {
    return { ok: true, result: normalizeResult(value, call.returnType) };
  } catch (error) {
    if (error instanceof ResultShapeError) return { ok: false, kind: 'result', message: error.message };
    throw error;
  }
}
