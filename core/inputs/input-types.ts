/**
 * @module input-types
 * Input parameters: a parameter whose schema carries `x-vitrine-input` (wire/input-schema.ts) takes another result
 * (a specimen's, or an upload's) instead of a plain value. The host checks the value when the
 * request arrives and loads the result just before the function runs; these are the shapes
 * both steps share.
 */
import type { ProgressUpdate } from '../invoke/invoker.ts';
import type { StoredResult } from '../results/stored-result.ts';
import { inputKindOf } from '../wire/input-schema.ts';
import { memoByIdentity } from '../params/memo.ts';
import type { InputKind } from '../sdk/input-types.ts';

/** Inputs may hold inputs of their own, this many levels deep at most. */
export const MAX_INPUT_DEPTH = 4;

/** What the loaders of one computation run with: its room, its signal, its progress. */
export interface InputRun {
  roomId: string;
  signal: AbortSignal;
  onProgress?: (update: ProgressUpdate) => void;
}

/** Produces an input's result (a cache hit, a computation, a file or an upload). */
export type InputLoader = (run: InputRun) => Promise<StoredResult>;

/** Loaders by parameter name. */
export type InputLoaders = Record<string, InputLoader>;

/**
 * The input parameters of a schema: name → the result type each takes. Schemas are made once
 * per function (and refinement), and every request asks: the answer is kept per schema (memo.ts).
 */
export const inputParameters = memoByIdentity((schema: Record<string, unknown>): readonly (readonly [string, InputKind])[] => {
  const found: [string, InputKind][] = [];
  const properties = schema.properties;
  if (properties && typeof properties === 'object') {
    for (const [name, prop] of Object.entries(properties as Record<string, unknown>)) {
      const kind = inputKindOf(prop);
      if (kind) found.push([name, kind]);
    }
  }
  return found;
});
