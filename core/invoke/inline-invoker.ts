/**
 * @module inline-invoker
 * Runs functions registered in code (`createApp({ meshFunctions })`, `registerFunction`) on
 * the main thread: a closure cannot move to a worker thread. Keep such functions small, or
 * ship them as a plugin bundle to run them in the pool. Each call gets values of its own, as a
 * call on a worker thread does: here the checked values are shared (a `params` text's values are
 * frozen and handed to every request that sent it, params/memo.ts; a body's values become the
 * room's state). Each array or object value is copied for the call, so a function that changes
 * one behaves the same whichever route asked, and changes nothing another request sees. The
 * cache key was made from the shared values before. Plain values need no copy, and an input's
 * loaded result is passed as it is (it is a held result, never copied).
 */
import type { FunctionEntry } from '../registry/function-entry.ts';
import { callPluginFunction } from '../results/call-plugin-function.ts';
import { outcomeError } from '../results/outcome-error.ts';
import type { StoredResult } from '../results/stored-result.ts';
import { inputKindOf } from '../wire/input-schema.ts';
import { indexOfKind, toPositionalArgs, type InvokeContext, type Invoker } from './invoker.ts';

/** `values`, with a copy of every array or object value that is not a loaded input. */
function ownValues(entry: FunctionEntry, values: Record<string, unknown>): Record<string, unknown> {
  const properties = (entry.schema.properties ?? {}) as Record<string, unknown>;
  let own: Record<string, unknown> | null = null;
  for (const [name, value] of Object.entries(values)) {
    if (value === null || typeof value !== 'object' || inputKindOf(properties[name]) !== undefined) continue;
    own ??= { ...values };
    own[name] = structuredClone(value);
  }
  return own ?? values;
}

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
