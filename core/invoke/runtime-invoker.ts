/**
 * @module runtime-invoker
 * Plugin bundles run where their language runs: JavaScript bundles on the worker-thread pool,
 * Python plugins in the host's Python processes. One invoker for `bundle` functions that hands
 * each run to the one its manifest's runtime names.
 */
import type { FunctionEntry } from '../registry/function-entry.ts';
import type { StoredResult } from '../results/stored-result.ts';
import type { InvokeContext, Invoker } from './invoker.ts';

export function byRuntime(invokers: { node: Invoker; python: Invoker }): Invoker {
  return {
    invoke(entry: FunctionEntry, values: Record<string, unknown>, ctx: InvokeContext): Promise<StoredResult> {
      const python = entry.source.kind === 'bundle' && entry.source.runtime === 'python';
      return (python ? invokers.python : invokers.node).invoke(entry, values, ctx);
    },
  };
}
