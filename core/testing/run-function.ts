/**
 * @module run-function
 * Calls one plugin function the way the host's worker does, in the calling thread: the
 * parameters are checked against the function's generated schema with its defaults filled,
 * the progress reporter and abort signal are injected where the function takes them, and the
 * returned value is checked and normalised. Failures are the host's catalogued errors.
 */
import { createHostError, wrapHostError } from '../errors.ts';
import { indexOfKind, toPositionalArgs } from '../invoke/invoker.ts';
import { resolveParams } from '../params/resolve-params.ts';
import { valueParameterNames, type FunctionEntry } from '../registry/function-entry.ts';
import { normalizeResult, ResultShapeError } from '../workers/normalize-result.ts';
import type { StoredResult } from '../workers/protocol.ts';

/** One `progress.report(text, fraction)` of a run. */
export interface ProgressMessage {
  text: string;
  fraction: number | null;
}

/** What a call returned: the normalised result and the progress it reported. */
export interface FunctionRun {
  /** The checked parameter values the function ran with (defaults filled). */
  values: Record<string, unknown>;
  result: StoredResult;
  progress: ProgressMessage[];
}

export interface CallOptions {
  /** Positional arguments, mapped onto the value parameters in order (like `args` of /invoke). */
  args?: unknown[];
  /** Aborts the run: the function's AbortSignal aborts and its next report() throws. */
  signal?: AbortSignal;
}

/**
 * Runs `fn` (the plugin's export behind `entry`) with `params` by name.
 * @throws HostError: SPC_ERR_PARAM_* (400) for parameters the host would refuse,
 * SPC_ERR_FUNCTION_FAILED when the function throws (the original error is its `cause`),
 * SPC_ERR_RESULT_INVALID when the result does not match the declared return type,
 * SPC_ERR_JOB_CANCELLED when `signal` aborted the run.
 */
export async function runFunction(entry: FunctionEntry, fn: (...args: unknown[]) => unknown, params: Record<string, unknown>, options: CallOptions = {}): Promise<FunctionRun> {
  const values = resolveParams(entry.schema, valueParameterNames(entry), { named: params, positional: options.args }, entry.name);
  const progress: ProgressMessage[] = [];
  const signal = options.signal ?? new AbortController().signal;
  const args = toPositionalArgs(entry, values);
  const reporterIndex = indexOfKind(entry, 'reporter');
  const signalIndex = indexOfKind(entry, 'signal');
  if (reporterIndex >= 0) {
    args[reporterIndex] = {
      report(text: string, fraction?: number) {
        if (signal.aborted) throw createHostError('SPC_ERR_JOB_CANCELLED');
        progress.push({ text: String(text), fraction: typeof fraction === 'number' && Number.isFinite(fraction) ? fraction : null });
      },
    };
  }
  if (signalIndex >= 0) args[signalIndex] = signal;
  let value: unknown;
  try {
    value = await fn(...args);
  } catch (error) {
    if (signal.aborted) throw createHostError('SPC_ERR_JOB_CANCELLED');
    throw wrapHostError(error, 'SPC_ERR_FUNCTION_FAILED', entry.name, error instanceof Error ? error.message : String(error));
  }
  try {
    return { values, result: normalizeResult(value, entry.return_type), progress };
  } catch (error) {
    if (error instanceof ResultShapeError) throw createHostError('SPC_ERR_RESULT_INVALID', entry.name, error.message);
    throw error;
  }
}
