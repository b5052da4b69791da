/**
 * @module inline-invoker
 * Runs functions registered in code (`createApp({ meshFunctions })`, `registerFunction`) on
 * the main thread: a closure cannot move to a worker thread. Keep such functions small, or
 * ship them as a plugin bundle to run them in the pool. Each call gets values of its own
 * (own-values.ts), as a call on a worker thread does.
 */
import type { FunctionEntry } from '../registry/function-entry.ts';
import { callPluginFunction } from '../results/call-plugin-function.ts';
import { outcomeError } from '../results/outcome-error.ts';
import type { StoredResult } from '../results/stored-result.ts';
import { ownValues } from './own-values.ts';
import { indexOfKind, toPositionalArgs, type InvokeContext, type Invoker } from './invoker.ts';

export class InlineInvoker implements Invoker {
  async invoke(entry: FunctionEntry, values: Record<string, unknown>, ctx: InvokeContext): Promise<StoredResult> {
    if (entry.source.kind !== 'inline') throw new Error(`InlineInvoker cannot run a ${entry.source.kind} function`);
    const outcome = await callPluginFunction({
      fn: entry.source.fn,
      args: toPositionalArgs(entry, ownValues(entry, values)),
      reporterIndex: indexOfKind(entry, 'reporter'),
      signalIndex: indexOfKind(entry, 'signal'),
      returnType: entry.return_type,
      signal: ctx.signal,
      onProgress: ctx.onProgress,
    });
    if (outcome.ok) return outcome.result;
    throw outcomeError(outcome, entry.name);
  }
}
