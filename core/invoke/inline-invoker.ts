/**
 * @module inline-invoker
 * Runs functions registered in code (`createApp({ meshFunctions })`, `registerFunction`) on
 * the main thread: a closure cannot move to a worker thread. Keep such functions small, or
 * ship them as a plugin bundle to run them in the pool.
 */
import { createHostError } from '../errors.ts';
import type { ProgressReporter } from '../sdk/plugin-types.ts';
import type { FunctionEntry } from '../registry/function-entry.ts';
import { normalizeResult, ResultShapeError } from '../workers/normalize-result.ts';
import type { StoredResult } from '../workers/protocol.ts';
import { indexOfKind, toPositionalArgs, type InvokeContext, type Invoker } from './invoker.ts';

export class InlineInvoker implements Invoker {
  async invoke(entry: FunctionEntry, values: Record<string, unknown>, ctx: InvokeContext): Promise<StoredResult> {
    if (entry.source.kind !== 'inline') throw new Error(`InlineInvoker cannot run a ${entry.source.kind} function`);
    if (ctx.signal.aborted) throw createHostError('SPC_ERR_JOB_CANCELLED');
    const reporter: ProgressReporter = {
      report(text: string, fraction?: number) {
        if (ctx.signal.aborted) throw createHostError('SPC_ERR_JOB_CANCELLED');
        ctx.onProgress?.({ text: String(text), fraction: typeof fraction === 'number' ? fraction : null, ts: Date.now() / 1000 });
      },
    };
    const args = toPositionalArgs(entry, values);
    const reporterIndex = indexOfKind(entry, 'reporter');
    const signalIndex = indexOfKind(entry, 'signal');
    if (reporterIndex >= 0) args[reporterIndex] = reporter;
    if (signalIndex >= 0) args[signalIndex] = ctx.signal;
    let value: unknown;
    try {
      value = await entry.source.fn(...args);
    } catch (error) {
      if (ctx.signal.aborted) throw createHostError('SPC_ERR_JOB_CANCELLED');
      throw createHostError('SPC_ERR_FUNCTION_FAILED', entry.name, error instanceof Error ? error.message : String(error));
    }
    if (ctx.signal.aborted) throw createHostError('SPC_ERR_JOB_CANCELLED');
    try {
      return normalizeResult(value, entry.return_type);
    } catch (error) {
      if (error instanceof ResultShapeError) throw createHostError('SPC_ERR_RESULT_INVALID', entry.name, error.message);
      throw error;
    }
  }
}
