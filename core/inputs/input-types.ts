/**
 * @module input-types
 * Input parameters: a parameter whose schema carries `x-vitrine-input` takes another result
 * (a specimen's, or an upload's) instead of a plain value. The host checks the value when the
 * request arrives and loads the result just before the function runs; these are the shapes
 * both steps share.
 */
import type { ProgressUpdate } from '../invoke/invoker.ts';
import type { StoredResult } from '../results/stored-result.ts';
import type { ResultType } from '../sdk/result-types.ts';

/** The schema keyword naming an input's result type. */
export const INPUT_KEYWORD = 'x-vitrine-input';

/** Inputs may hold inputs of their own, this many levels deep at most. */
export const MAX_INPUT_DEPTH = 4;

const RESULT_TYPES: readonly string[] = ['mesh', 'volume', 'point_cloud', 'image'];

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

/** The input parameters of a schema: name → the result type each takes. */
export function inputParameters(schema: Record<string, unknown>): [string, ResultType][] {
  const properties = schema.properties;
  if (!properties || typeof properties !== 'object') return [];
  const found: [string, ResultType][] = [];
  for (const [name, prop] of Object.entries(properties as Record<string, Record<string, unknown>>)) {
    const type = prop?.[INPUT_KEYWORD];
    if (typeof type === 'string' && RESULT_TYPES.includes(type)) found.push([name, type as ResultType]);
  }
  return found;
}
