/**
 * @module run-function
 * Calls one plugin function the way the host's worker does, in the calling thread: the
 * parameters are checked against the function's generated schema with its defaults filled,
 * the progress reporter and abort signal are injected where the function takes them, and the
 * returned value is checked and normalised. Failures are the host's catalogued errors.
 */
import { indexOfKind, toPositionalArgs } from '../invoke/invoker.ts';
import { resolveParams } from '../params/resolve-params.ts';
import { valueParameterNames, type FunctionEntry } from '../registry/function-entry.ts';
import { callPluginFunction } from '../results/call-plugin-function.ts';
import { outcomeError } from '../results/outcome-error.ts';
import type { StoredResult } from '../results/stored-result.ts';

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

/** Turns checked values into the ones the function runs with (inputs resolved). */
export type PrepareValues = (values: Record<string, unknown>) => Promise<Record<string, unknown>>;

/**
 * Runs `fn` (the plugin's export behind `entry`) with `params` by name.
 * @throws HostError: SPC_ERR_PARAM_* (400) for parameters the host would refuse,
 * SPC_ERR_FUNCTION_FAILED when the function throws (the original error is its `cause`),
 * SPC_ERR_RESULT_INVALID when the result does not match the declared return type,
 * SPC_ERR_JOB_CANCELLED when `signal` aborted the run.
 */
export async function runFunction(
  entry: FunctionEntry,
  fn: (...args: unknown[]) => unknown,
  params: Record<string, unknown>,
  options: CallOptions = {},
  prepare?: PrepareValues,
): Promise<FunctionRun> {
  const values = resolveParams(entry.schema, valueParameterNames(entry), { named: params, positional: options.args }, entry.name);
  const progress: ProgressMessage[] = [];
  const outcome = await callPluginFunction({
    fn,
    args: toPositionalArgs(entry, prepare ? await prepare(values) : values),
    reporterIndex: indexOfKind(entry, 'reporter'),
    signalIndex: indexOfKind(entry, 'signal'),
    returnType: entry.return_type,
    signal: options.signal ?? new AbortController().signal,
    onProgress: ({ text, fraction }) => progress.push({ text, fraction }),
  });
  if (!outcome.ok) throw outcomeError(outcome, entry.name);
  return { values, result: outcome.result, progress };
}
